import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Empty, Input, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, pointerWithin, rectIntersection, useDraggable, useDroppable, useSensor, useSensors, type CollisionDetection, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { api, ApiError, showConfirm, useRights } from '../../app/public';
import { suggestOrder, pathKm } from '../../common/route-plan';
import type { Choice, DeliveryOrder, RoutesAnswer, TmsRoute } from '../../common/transport-api';

const RouteMap = lazy(() => import('./RouteMap'));

/** A stop under the pointer (or the dragged box, by keyboard) wins over the route box around it. */
const preferStops: CollisionDetection = (args) => {
  const stopsFirst = (hits: ReturnType<CollisionDetection>) => {
    const stops = hits.filter((h) => String(h.id).startsWith('stop-'));
    return stops.length ? stops : hits;
  };
  const byPointer = args.pointerCoordinates ? pointerWithin(args) : [];
  if (byPointer.length) return stopsFirst(byPointer);
  const byRect = rectIntersection(args);
  return byRect.length ? stopsFirst(byRect) : closestCenter(args);
};

const STATUS_COLORS: Record<string, string> = { open: 'green', confirmed: 'blue' };
const today = () => new Date().toISOString().slice(0, 10);

/**
 * /doOrders: the route planner. Unplanned delivery orders (imported from a sheet, made from shipped
 * sales orders, or entered on /tmsOrder) are dragged onto a route (mouse, or keyboard: Space to lift,
 * arrows, Space to drop); a route's stops are dragged into order, split at a stop, merged with another
 * route, confirmed (read-only; the server refuses changes) and unconfirmed. Each route shows its
 * vehicle's capacity against its load and warns when over. The map draws the routes offline.
 */
export default function PlannerScreen() {
  const { t } = useTranslation();
  const rights = useRights('transport.doOrders');
  const [unplanned, setUnplanned] = useState<DeliveryOrder[]>([]);
  const [answer, setAnswer] = useState<RoutesAnswer>({ routes: [], warehouse: null, tileUrl: null });
  const [choices, setChoices] = useState<{ vehicles: Choice[]; drivers: Choice[] }>({ vehicles: [], drivers: [] });
  const [filter, setFilter] = useState('');
  const [importErrors, setImportErrors] = useState<string[]>([]);
  const [message, setMessage] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const [showMap, setShowMap] = useState(false);
  const [draft, setDraft] = useState<{ routeDate: string; vehicleId: number | null; driverId: number | null } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const refresh = useCallback(async () => {
    const [orders, routes] = await Promise.all([
      filter.trim()
        ? api<{ rows: DeliveryOrder[] }>(`/tms/findDeliveries`, { method: 'GET', query: { q: filter.trim() }, quiet: true })
        : api<{ rows: DeliveryOrder[] }>('/tms/getTmsDoHeaders', { method: 'GET', query: { status: 'unplanned' }, quiet: true }),
      api<RoutesAnswer>('/tms/getRoutes', { body: {}, quiet: true }),
    ]);
    setUnplanned(orders.rows.filter((o) => o.status === 'unplanned'));
    setAnswer(routes);
  }, [filter]);

  useEffect(() => {
    if (!rights.view) return;
    void refresh().catch(() => undefined);
  }, [rights.view, refresh]);

  useEffect(() => {
    if (rights.view) void api<{ vehicles: Choice[]; drivers: Choice[] }>('/tms/choices', { method: 'GET', quiet: true }).then(setChoices, () => undefined);
  }, [rights.view]);

  /** Runs a change; on a refusal shows the server's text, and always reloads what is shown. */
  const run = async (work: () => Promise<unknown>, success?: string) => {
    try {
      await work();
      if (success) setMessage({ type: 'success', text: success });
    } catch (error) {
      setMessage({ type: 'error', text: error instanceof ApiError ? error.body.message : String(error) });
    }
    await refresh().catch(() => undefined);
  };

  const routeOfStop = useMemo(() => {
    const map = new Map<number, TmsRoute>();
    for (const route of answer.routes) for (const stop of route.stops) map.set(stop.id, route);
    return map;
  }, [answer.routes]);

  const onDragEnd = (event: DragEndEvent) => {
    const active = String(event.active.id);
    const over = event.over ? String(event.over.id) : null;
    if (!over) return;
    const doId = Number(active.split('-')[1]);
    const overId = Number(over.split('-')[1]);
    const target = over.startsWith('route-') ? answer.routes.find((r) => r.id === overId) : routeOfStop.get(overId);
    if (!target) return;
    const from = routeOfStop.get(doId);
    if (from && from.id === target.id) {
      if (!over.startsWith('stop-') || overId === doId) return;
      const ids = target.stops.map((s) => s.id);
      const next = arrayMove(ids, ids.indexOf(doId), ids.indexOf(overId));
      void run(() => api('/tms/sortWay', { body: { routeId: target.id, doIds: next }, quiet: true }));
      return;
    }
    const position = over.startsWith('stop-') ? target.stops.findIndex((s) => s.id === overId) : undefined;
    void run(() => api('/tms/addOrdersToRoute', { body: { routeId: target.id, doIds: [doId], ...(position !== undefined && position >= 0 ? { position } : {}) }, quiet: true }));
  };

  const importFile = async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    setImportErrors([]);
    try {
      const result = await api<{ imported: number }>('/tms/importTmsDoHeaders', { body: form, quiet: true });
      setMessage({ type: 'success', text: t('tms.screen.imported', { count: result.imported }) });
    } catch (error) {
      if (error instanceof ApiError) {
        setMessage({ type: 'error', text: error.body.message });
        setImportErrors((error.body.details ?? []).map((d) => d.message ?? d.code));
      }
    }
    if (fileInput.current) fileInput.current.value = '';
    await refresh().catch(() => undefined);
  };

  const fromShipped = () =>
    run(async () => {
      const result = await api<{ created: number }>('/tms/createFromShippedOrders', { body: {}, quiet: true });
      setMessage({ type: 'success', text: t('tms.screen.created', { count: result.created }) });
    });

  const saveDraft = async () => {
    if (!draft) return;
    await run(() => api('/tms/saveRoute', { body: draft, quiet: true }));
    setDraft(null);
  };

  if (!rights.view) return <Empty description={t('tms.screen.noRight')} />;

  return (
    <div data-testid="tms-planner" style={{ padding: 12 }} onKeyDown={(e) => e.key === 'Escape' && (setDraft(null), setMessage(null))}>
      <Space wrap style={{ marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('tms.screen.title')}
        </Typography.Title>
        {rights.edit && (
          <>
            <Button data-testid="tms-new-route" type="primary" onClick={() => setDraft({ routeDate: today(), vehicleId: choices.vehicles[0]?.id ?? null, driverId: choices.drivers[0]?.id ?? null })}>
              {t('tms.screen.newRoute')}
            </Button>
            <Button data-testid="tms-import" onClick={() => fileInput.current?.click()}>
              {t('tms.screen.import')}
            </Button>
            <input ref={fileInput} data-testid="tms-import-file" type="file" accept=".xlsx,.csv" hidden onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])} />
            <Button data-testid="tms-from-shipped" onClick={() => void fromShipped()}>
              {t('tms.screen.fromShipped')}
            </Button>
          </>
        )}
        <Button data-testid="tms-map-toggle" onClick={() => setShowMap((v) => !v)}>
          {showMap ? t('tms.screen.hideMap') : t('tms.screen.showMap')}
        </Button>
      </Space>
      {message && <Alert data-testid={`tms-message-${message.type}`} type={message.type} message={message.text} closable onClose={() => setMessage(null)} style={{ marginBottom: 8 }} />}
      {importErrors.length > 0 && (
        <Alert data-testid="tms-import-errors" type="error" style={{ marginBottom: 8 }} message={<ul style={{ margin: 0, paddingLeft: 16 }}>{importErrors.map((e) => <li key={e}>{e}</li>)}</ul>} />
      )}
      {draft && (
        <Space wrap data-testid="tms-route-form" style={{ marginBottom: 8 }} onKeyDown={(e) => e.key === 'Enter' && void saveDraft()}>
          <Input type="date" aria-label={t('tms.screen.routeDate')} value={draft.routeDate} onChange={(e) => setDraft({ ...draft, routeDate: e.target.value })} />
          {(['vehicle', 'driver'] as const).map((kind) => (
            <Select
              key={kind}
              data-testid={`tms-${kind}`}
              style={{ minWidth: 200 }}
              allowClear
              placeholder={t(`tms.screen.${kind}`)}
              value={draft[`${kind}Id`] ?? undefined}
              onChange={(value?: number) => setDraft({ ...draft, [`${kind}Id`]: value ?? null })}
              options={choices[`${kind}s`].map((c) => ({ value: c.id, label: c.name ? `${c.code} (${c.name})` : c.code }))}
            />
          ))}
          <Button data-testid="tms-route-save" type="primary" onClick={() => void saveDraft()}>
            {t('tms.screen.save')}
          </Button>
          <Button onClick={() => setDraft(null)}>{t('tms.screen.cancel')}</Button>
        </Space>
      )}
      {showMap && (
        <Suspense fallback={<div style={{ height: 360 }} />}>
          <RouteMap routes={answer.routes} warehouse={answer.warehouse} tileUrl={answer.tileUrl} />
        </Suspense>
      )}
      <DndContext sensors={sensors} collisionDetection={preferStops} onDragEnd={onDragEnd}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-start' }}>
          <section data-testid="tms-unplanned" style={{ flex: '1 1 300px', minWidth: 280 }}>
            <Typography.Title level={5}>{t('tms.screen.unplanned', { count: unplanned.length })}</Typography.Title>
            <Input.Search data-testid="tms-find" allowClear placeholder={t('tms.screen.find')} onSearch={(value) => setFilter(value)} style={{ marginBottom: 8 }} />
            {unplanned.map((order) => (
              <DraggableOrder key={order.id} order={order} disabled={!rights.edit} />
            ))}
          </section>
          <section style={{ flex: '2 1 420px', minWidth: 300, display: 'flex', flexDirection: 'column', gap: 8 }}>
            {answer.routes.length === 0 && <Empty description={t('tms.screen.noRoutes')} />}
            {answer.routes.map((route) => (
              <RouteCard key={route.id} route={route} routes={answer.routes} edit={rights.edit} warehouse={answer.warehouse} run={run} />
            ))}
          </section>
        </div>
      </DndContext>
    </div>
  );
}

function OrderLine({ order, seq, actions }: { order: DeliveryOrder; seq?: number; actions?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
      <span>
        {seq !== undefined && <Tag>{seq}</Tag>}
        <b>{order.doNo}</b> {order.customerName}
        {order.city ? ` · ${order.city}` : ''}
      </span>
      <span style={{ color: '#888', fontSize: 12 }}>
        {t('tms.screen.size', { weight: order.weightKg, volume: order.volumeM3, pallets: order.palletCount })}
        {actions}
      </span>
    </Space>
  );
}

const ITEM_STYLE = { border: '1px solid #d9d9d9', borderRadius: 4, padding: '4px 8px', marginBottom: 4, background: '#fff', cursor: 'grab', touchAction: 'none' } as const;

function DraggableOrder({ order, disabled }: { order: DeliveryOrder; disabled: boolean }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: `do-${order.id}`, disabled });
  const style = { ...ITEM_STYLE, transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined, opacity: isDragging ? 0.6 : 1, zIndex: isDragging ? 10 : undefined, position: 'relative' as const };
  return (
    <div ref={setNodeRef} style={style} data-testid={`tms-do-${order.doNo}`} {...listeners} {...attributes}>
      <OrderLine order={order} />
    </div>
  );
}

function SortableStop({ order, seq, route, edit, run, routes }: { order: DeliveryOrder; seq: number; route: TmsRoute; edit: boolean; routes: TmsRoute[]; run: (work: () => Promise<unknown>) => Promise<void> }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: `stop-${order.id}`, disabled: !edit });
  void routes;
  const style = { ...ITEM_STYLE, transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined, transition, opacity: isDragging ? 0.6 : 1, position: 'relative' as const };
  const stop = (e: { stopPropagation: () => void }) => e.stopPropagation();
  return (
    <div ref={setNodeRef} style={style} data-testid={`tms-stop-${order.doNo}`} {...listeners} {...attributes}>
      <OrderLine
        order={order}
        seq={seq}
        actions={
          edit && (
            <span onPointerDown={stop} onKeyDown={stop}>
              {seq > 1 && (
                <Button size="small" type="link" data-testid={`tms-split-${order.doNo}`} onClick={() => void run(() => api('/tms/splitRoute', { body: { routeId: route.id, doId: order.id }, quiet: true }))}>
                  {t('tms.screen.split')}
                </Button>
              )}
              <Button size="small" type="link" data-testid={`tms-remove-${order.doNo}`} onClick={() => void run(() => api('/tms/removeOrderFromRoute', { body: { routeId: route.id, doId: order.id }, quiet: true }))}>
                {t('tms.screen.remove')}
              </Button>
            </span>
          )
        }
      />
    </div>
  );
}

function Capacity({ route }: { route: TmsRoute }) {
  const { t } = useTranslation();
  const part = (name: 'weight' | 'volume' | 'pallets', load: string | number, capacity: string | number | null) => (
    <Tag color={route.over.includes(name) ? 'red' : undefined} data-testid={`tms-load-${name}`}>
      {t(`tms.screen.${name}`)}: {load}
      {capacity !== null ? ` / ${capacity}` : ''}
    </Tag>
  );
  return (
    <Space wrap size={4}>
      {part('weight', route.load.weightKg, route.capacity.weightKg)}
      {part('volume', route.load.volumeM3, route.capacity.volumeM3)}
      {part('pallets', route.load.pallets, route.capacity.pallets)}
      <Tag data-testid="tms-distance">{t('tms.screen.distance', { km: route.distanceKm })}</Tag>
    </Space>
  );
}

function RouteCard({ route, routes, edit, warehouse, run }: { route: TmsRoute; routes: TmsRoute[]; edit: boolean; warehouse: RoutesAnswer['warehouse']; run: (work: () => Promise<unknown>, success?: string) => Promise<void> }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: `route-${route.id}` });
  const [mergeFrom, setMergeFrom] = useState<number | undefined>();
  const confirmed = route.status === 'confirmed';
  const located = route.stops.filter((s) => s.latitude !== null && s.longitude !== null);
  const suggestion = useMemo(() => {
    if (located.length < 3 || located.length !== route.stops.length) return null;
    const points = located.map((s) => ({ lat: s.latitude!, lng: s.longitude! }));
    const order = suggestOrder(points, warehouse);
    const km = pathKm(order.map((i) => points[i]), warehouse, warehouse !== null);
    const now = pathKm(points, warehouse, warehouse !== null);
    return km + 0.01 < now ? { ids: order.map((i) => located[i].id), km: Math.round(km * 100) / 100 } : null;
  }, [located, route.stops.length, warehouse]);

  const confirmRoute = async () => {
    if (await showConfirm({ id: 'tms-confirm-route', content: t('tms.screen.confirmAsk', { routeNo: route.routeNo }) })) await run(() => api('/tms/comfirmRoute', { body: { routeId: route.id }, quiet: true }));
  };
  const deleteRoute = async () => {
    if (await showConfirm({ id: 'tms-delete-route', okType: 'danger', content: t('tms.screen.deleteAsk', { routeNo: route.routeNo }) })) await run(() => api('/tms/deleteRoute', { body: { id: route.id }, quiet: true }));
  };

  return (
    <div
      ref={setNodeRef}
      data-testid={`tms-route-${route.routeNo}`}
      data-status={route.status}
      style={{ border: `2px ${isOver ? 'solid #1677ff' : 'dashed #d9d9d9'}`, borderRadius: 6, padding: 8, background: confirmed ? '#f5f5f5' : '#fafafa' }}
    >
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <span>
          <b>{route.routeNo}</b> {route.routeDate} · {route.vehiclePlate ?? t('tms.screen.noVehicle')} · {route.driverName ?? t('tms.screen.noDriver')}{' '}
          <Tag color={STATUS_COLORS[route.status]} data-testid="tms-route-status">
            {t(`tms.routeStatus.${route.status}`)}
          </Tag>
        </span>
        {edit && (
          <Space wrap size={4}>
            {confirmed ? (
              <Button size="small" data-testid="tms-unconfirm" onClick={() => void run(() => api('/tms/uncomfirmRoute', { body: { routeId: route.id }, quiet: true }))}>
                {t('tms.screen.unconfirm')}
              </Button>
            ) : (
              <>
                <Button size="small" type="primary" data-testid="tms-confirm" onClick={() => void confirmRoute()}>
                  {t('tms.screen.confirm')}
                </Button>
                <Select
                  size="small"
                  data-testid="tms-merge-from"
                  style={{ minWidth: 140 }}
                  placeholder={t('tms.screen.mergeFrom')}
                  value={mergeFrom}
                  onChange={setMergeFrom}
                  options={routes.filter((r) => r.id !== route.id && r.status === 'open').map((r) => ({ value: r.id, label: r.routeNo }))}
                />
                <Button
                  size="small"
                  data-testid="tms-merge"
                  disabled={mergeFrom === undefined}
                  onClick={() => void run(() => api('/tms/mergeRoute', { body: { routeId: route.id, fromRouteId: mergeFrom }, quiet: true })).then(() => setMergeFrom(undefined))}
                >
                  {t('tms.screen.merge')}
                </Button>
                <Button size="small" danger data-testid="tms-delete-route" onClick={() => void deleteRoute()}>
                  {t('tms.screen.delete')}
                </Button>
              </>
            )}
          </Space>
        )}
      </Space>
      <Capacity route={route} />
      {route.over.length > 0 && (
        <Alert data-testid="tms-over-capacity" type="warning" showIcon style={{ margin: '4px 0' }} message={t('tms.screen.overCapacity', { what: route.over.map((o) => t(`tms.screen.${o}`)).join(', ') })} />
      )}
      {suggestion && edit && !confirmed && (
        <Alert
          data-testid="tms-suggestion"
          type="info"
          style={{ margin: '4px 0' }}
          message={t('tms.screen.suggestion', { km: suggestion.km, now: route.distanceKm })}
          action={
            <Button size="small" data-testid="tms-accept-suggestion" onClick={() => void run(() => api('/tms/sortWay', { body: { routeId: route.id, doIds: suggestion.ids }, quiet: true }))}>
              {t('tms.screen.accept')}
            </Button>
          }
        />
      )}
      <SortableContext items={route.stops.map((s) => `stop-${s.id}`)} strategy={verticalListSortingStrategy}>
        <div style={{ minHeight: 36, marginTop: 4 }}>
          {route.stops.length === 0 && <Typography.Text type="secondary">{t('tms.screen.dropHere')}</Typography.Text>}
          {route.stops.map((stop, index) => (
            <SortableStop key={stop.id} order={stop} seq={index + 1} route={route} routes={routes} edit={edit} run={run} />
          ))}
        </div>
      </SortableContext>
    </div>
  );
}
