import { Card, Col, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StockActivity, WorkSummary } from '../../common/api-types';
import { EChart as Chart } from '../../app/public-widgets';

/**
 * The home page's charts: received and shipped per day and stock by owner (when the user may see the
 * stock: `activity` is then given), and the open work of the warehouse by kind and status.
 */
export default function HomeCharts({ activity, work, statusLabel }: { activity: StockActivity | null; work: WorkSummary[]; statusLabel: (w: WorkSummary, status: string) => string }) {
  const { t } = useTranslation();
  const cards = [];
  if (activity) {
    const moved = activity.days.some((d) => Number(d.received) !== 0 || Number(d.shipped) !== 0);
    cards.push(
      <Col key="activity" xs={24} lg={12}>
        <Card title={t('ui.home.charts.activity')} data-testid="home-chart-activity" data-days={activity.days.map((d) => `${d.day}:${d.received}:${d.shipped}`).join(' ')}>
          {moved ? (
            <Chart
              testId="home-chart-activity-canvas"
              option={{
                tooltip: { trigger: 'axis' },
                legend: { top: 0 },
                xAxis: { type: 'category', data: activity.days.map((d) => d.day.slice(5)) },
                yAxis: { type: 'value' },
                series: [
                  { name: t('ui.home.charts.received'), type: 'bar', data: activity.days.map((d) => Number(d.received)) },
                  { name: t('ui.home.charts.shipped'), type: 'bar', data: activity.days.map((d) => Number(d.shipped)) },
                ],
              }}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ui.home.charts.noActivity')} />
          )}
        </Card>
      </Col>,
    );
  }
  if (work.length) {
    const statuses = [...new Set(work.flatMap((w) => w.byStatus.map((s) => s.status)))];
    cards.push(
      <Col key="work" xs={24} lg={12}>
        <Card title={t('ui.home.charts.workByStatus')} data-testid="home-chart-work">
          <Chart
            testId="home-chart-work-canvas"
            option={{
              tooltip: { trigger: 'axis' },
              xAxis: { type: 'category', data: work.map((w) => t(`ui.home.source.${w.kind}`)) },
              yAxis: { type: 'value', minInterval: 1 },
              series: statuses.map((status) => ({
                name: statusLabel(work.find((w) => w.byStatus.some((s) => s.status === status))!, status),
                type: 'bar',
                stack: 'work',
                data: work.map((w) => w.byStatus.find((s) => s.status === status)?.count ?? 0),
              })),
            }}
          />
        </Card>
      </Col>,
    );
  }
  if (activity?.owners.length) {
    cards.push(
      <Col key="owners" xs={24} lg={12}>
        <Card title={t('ui.home.charts.stockByOwner')} data-testid="home-chart-owners" data-owners={activity.owners.map((o) => `${o.owner}:${o.onHand}`).join(' ')}>
          <Chart
            testId="home-chart-owners-canvas"
            option={{
              tooltip: { trigger: 'item' },
              series: [{ type: 'pie', radius: '65%', data: activity.owners.map((o) => ({ name: o.owner, value: Number(o.onHand) })) }],
            }}
          />
        </Card>
      </Col>,
    );
  }
  return <>{cards}</>;
}
