import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { RoutesAnswer, TmsRoute } from '../../common/transport-api';

const COLORS = ['#1677ff', '#d4380d', '#389e0d', '#722ed1', '#c41d7f', '#d48806', '#08979c'];

/**
 * The routes and their stops on a map (its own lazy chunk with leaflet). With a tile URL the map
 * shows those tiles; without one it is a plain coordinate canvas (CRS.Simple: longitude across,
 * latitude up) that needs no internet: the warehouse, the stops numbered in order and each route's
 * line (warehouse -> stops -> warehouse).
 */
export default function RouteMap({ routes, warehouse, tileUrl }: { routes: TmsRoute[]; warehouse: RoutesAnswer['warehouse']; tileUrl: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const map = L.map(box.current, { crs: tileUrl ? L.CRS.EPSG3857 : L.CRS.Simple, zoomSnap: 0.1, attributionControl: Boolean(tileUrl) });
    if (tileUrl) L.tileLayer(tileUrl, { maxZoom: 19 }).addTo(map);
    const bounds: L.LatLngExpression[] = [];
    if (warehouse) {
      L.circleMarker([warehouse.lat, warehouse.lng], { radius: 9, color: '#000', fillColor: '#000', fillOpacity: 0.9, className: 'tms-warehouse' })
        .bindTooltip('WH', { permanent: true, direction: 'top' })
        .addTo(map);
      bounds.push([warehouse.lat, warehouse.lng]);
    }
    routes.forEach((route, index) => {
      const color = COLORS[index % COLORS.length];
      const points = route.stops.filter((s) => s.latitude !== null && s.longitude !== null).map((s) => ({ stop: s, at: [s.latitude!, s.longitude!] as [number, number] }));
      const line: Array<[number, number]> = points.map((p) => p.at);
      if (warehouse && line.length) {
        line.unshift([warehouse.lat, warehouse.lng]);
        line.push([warehouse.lat, warehouse.lng]);
      }
      if (line.length > 1) L.polyline(line, { color, weight: 3, className: `tms-route-line tms-line-${route.routeNo}` }).bindTooltip(`${route.routeNo} · ${route.distanceKm} km`).addTo(map);
      points.forEach((p, seq) => {
        L.circleMarker(p.at, { radius: 7, color, fillColor: color, fillOpacity: 0.8, className: 'tms-stop-marker' })
          .bindTooltip(`${seq + 1}. ${p.stop.doNo} ${p.stop.customerName}`, { permanent: false })
          .addTo(map);
        bounds.push(p.at);
      });
    });
    if (bounds.length) map.fitBounds(L.latLngBounds(bounds), { padding: [24, 24], maxZoom: tileUrl ? 15 : undefined });
    else map.setView([0, 0], tileUrl ? 2 : 0);
    return () => {
      map.remove();
    };
  }, [routes, warehouse, tileUrl]);
  return <div ref={box} data-testid="tms-map" data-tiles={tileUrl ? 'tiles' : 'canvas'} style={{ height: 360, width: '100%', marginBottom: 8, background: tileUrl ? undefined : '#f0f5ff' }} />;
}
