import { useEffect, useRef } from 'react';
import { theme } from 'antd';
import type { DashboardWidgetData } from '../../common/report-api';
import { cellText } from './report-texts';

/**
 * A chart of a report's rows: echarts is loaded only here, when a dashboard shows a chart (never
 * with the sign-in page), coloured with the application's theme.
 */
export default function ChartWidget({ widget }: { widget: DashboardWidgetData }) {
  const box = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  useEffect(() => {
    let disposed = false;
    let chart: { dispose(): void; resize(): void } | undefined;
    const onResize = () => chart?.resize();
    void import('echarts').then((echarts) => {
      if (disposed || !box.current) return;
      const instance = echarts.init(box.current, undefined, { renderer: 'svg' });
      chart = instance;
      const labels = widget.rows.map((r) => cellText(r[widget.labelColumn ?? '']));
      const values = widget.rows.map((r) => Number(r[widget.valueColumn ?? ''] ?? 0));
      const kind = widget.chart ?? 'bar';
      instance.setOption({
        color: [token.colorPrimary, token.colorSuccess, token.colorWarning, token.colorError, token.colorInfo],
        textStyle: { fontFamily: token.fontFamily, color: token.colorText },
        tooltip: { trigger: kind === 'pie' ? 'item' : 'axis' },
        grid: { left: 48, right: 16, top: 16, bottom: 32 },
        ...(kind === 'pie'
          ? { series: [{ type: 'pie', radius: '70%', data: labels.map((name, i) => ({ name, value: values[i] })) }] }
          : { xAxis: { type: 'category', data: labels }, yAxis: { type: 'value' }, series: [{ type: kind, data: values }] }),
      });
      window.addEventListener('resize', onResize);
    });
    return () => {
      disposed = true;
      window.removeEventListener('resize', onResize);
      chart?.dispose();
    };
  }, [widget, token]);
  return <div ref={box} style={{ width: '100%', height: 260 }} data-testid="chart-widget" />;
}
