import { useMemo } from 'react';
import type { DashboardWidgetData } from '../../common/report-api';
import { EChart } from '../../app/public-widgets';
import { cellText } from './report-texts';

/** A chart of a report's rows on a dashboard (echarts loads with the first chart shown). */
export default function ChartWidget({ widget }: { widget: DashboardWidgetData }) {
  const option = useMemo(() => {
    const labels = widget.rows.map((r) => cellText(r[widget.labelColumn ?? '']));
    const values = widget.rows.map((r) => Number(r[widget.valueColumn ?? ''] ?? 0));
    const kind = widget.chart ?? 'bar';
    return {
      tooltip: { trigger: kind === 'pie' ? 'item' : 'axis' },
      grid: { left: 48, right: 16, top: 16, bottom: 32 },
      ...(kind === 'pie'
        ? { series: [{ type: 'pie', radius: '70%', data: labels.map((name, i) => ({ name, value: values[i] })) }] }
        : { xAxis: { type: 'category', data: labels }, yAxis: { type: 'value' }, series: [{ type: kind, data: values }] }),
    };
  }, [widget]);
  return <EChart option={option} testId="chart-widget" height={260} />;
}
