import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Button, Card, Col, Empty, List, Row, Space, Statistic, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { MenuItem, StockActivity, WorkSummary } from '../../common/api-types';
import { LANGUAGES } from '../../common/languages';
import { api, findPageRoute, formatDateTime, openRoute, useSession } from '../../app/public';

/** The charts load with echarts, apart from the rest of the home page. */
const HomeCharts = lazy(() => import('./HomeCharts'));

/** The open inventory documents of the session's warehouse (`/inventory/msg`), by type and status. */
interface InventoryWork {
  documents: { docType: string; status: string; count: number }[];
}

/** The page that lists each type of inventory document. */
const DOCUMENT_ROUTES: Record<string, string> = { adjust: 'invAdjust', move: 'lnvnMove', transfer: 'invTransfer', hold: 'invHold' };

/** Open inventory documents as home work items, one per document type, in the order of the menu. */
function inventoryWorkItems(answer: InventoryWork): WorkSummary[] {
  return Object.entries(DOCUMENT_ROUTES).flatMap(([docType, route]) => {
    const byStatus = answer.documents.filter((d) => d.docType === docType).map((d) => ({ status: d.status, count: d.count }));
    const total = byStatus.reduce((sum, s) => sum + s.count, 0);
    return total > 0 ? [{ kind: route, available: true, total, byStatus, statusTexts: 'inv.status', listRoute: route }] : [];
  });
}

/** Whether the menu (built from the user's rights) offers the page of this route. */
function menuOffers(items: MenuItem[], route: string): boolean {
  return items.some((item) => item.route?.split('/').pop() === route || menuOffers(item.children ?? [], route));
}

interface Shortcut {
  route: string;
  visits: number;
  lastVisitedAt: string;
}

/**
 * The start page of a signed-in user: who and where they are, the open work of
 * their warehouse by kind and status (the open inventory documents too, for a user who may see the
 * inventory), and shortcuts to the pages they open most.
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const status = useSession((s) => s.status);
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  const [work, setWork] = useState<WorkSummary[] | null>(null);
  const [inventoryWork, setInventoryWork] = useState<WorkSummary[]>([]);
  // The open inventory documents are asked for only by a user who may see the stock of a warehouse
  // (the balance page is in his menu): a refused call would end the session.
  const menu = useSession((s) => s.menu);
  const mayViewStock = Boolean(status?.warehouse) && menuOffers(menu, 'balance');
  const [shortcuts, setShortcuts] = useState<Shortcut[] | null>(null);
  const [activity, setActivity] = useState<StockActivity | null>(null);
  const timeZone = status?.user.timeZone ?? 'UTC';

  const load = useCallback(() => {
    api<{ work: WorkSummary[] }>('/home/summary')
      .then((answer) => setWork(answer.work))
      .catch(() => setWork([]));
    if (mayViewStock) {
      api<InventoryWork>('/inventory/msg', { quiet: true })
        .then((answer) => setInventoryWork(inventoryWorkItems(answer)))
        .catch(() => setInventoryWork([]));
      api<StockActivity>(`/inventory/activity?timeZone=${encodeURIComponent(timeZone)}`, { quiet: true })
        .then(setActivity)
        .catch(() => setActivity(null));
    } else {
      setInventoryWork([]);
      setActivity(null);
    }
    api<{ items: Shortcut[] }>('/home/shortcuts')
      .then((answer) => setShortcuts(answer.items.filter((item) => findPageRoute(item.route))))
      .catch(() => setShortcuts([]));
  }, [mayViewStock, timeZone]);

  useEffect(load, [load]);

  const openWork = [...(work ?? []), ...inventoryWork].filter((w) => w.total > 0);
  // Each area names the text keys of its statuses and the list of its work (its manifest's homeItems).
  const statusLabel = (w: WorkSummary, value: string): string => t(`${w.statusTexts}.${value}`, { defaultValue: value });

  return (
    <div data-testid="home-screen">
      <Space align="baseline" style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <div>
          <Typography.Title level={3} style={{ marginBottom: 4 }}>
            {t('ui.home.welcome', { name: status?.user.displayName ?? '' })}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('ui.home.scope', {
              project: status?.project?.code ?? t('ui.home.none'),
              warehouse: status?.warehouse?.code ?? t('ui.home.none'),
              timeZone,
            })}
          </Typography.Text>
        </div>
        <Button icon={<ReloadOutlined />} onClick={load}>
          {t('ui.home.refresh')}
        </Button>
      </Space>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} lg={14}>
          <Card title={t('ui.home.openWork')} loading={work === null} data-testid="home-open-work">
            {openWork.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ui.home.noOpenWork')} />
            ) : (
              <Row gutter={[16, 16]}>
                {openWork.map((w) => (
                  <Col key={w.kind} xs={24} md={8}>
                    <Statistic
                      title={
                        w.listRoute ? (
                          <a href={`#/page/${w.listRoute}`} data-testid={`home-work-${w.kind}`}>
                            {t(`ui.home.source.${w.kind}`)}
                          </a>
                        ) : (
                          t(`ui.home.source.${w.kind}`)
                        )
                      }
                      value={w.total}
                    />
                    <Space wrap size={[4, 4]} style={{ marginTop: 8 }}>
                      {w.byStatus.map((s) => {
                        const text = `${statusLabel(w, s.status)}: ${s.count}`;
                        const listRoute = w.listRoute;
                        return listRoute ? (
                          <Tag.CheckableTag key={s.status} checked={false} data-testid={`home-chip-${w.kind}-${s.status}`} onChange={() => openRoute(listRoute, { status: s.status })}>
                            {text}
                          </Tag.CheckableTag>
                        ) : (
                          <Tag key={s.status}>{text}</Tag>
                        );
                      })}
                    </Space>
                  </Col>
                ))}
              </Row>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('ui.home.shortcuts')} loading={shortcuts === null} data-testid="home-shortcuts">
            {shortcuts?.length ? (
              <List
                size="small"
                dataSource={shortcuts}
                renderItem={(item) => {
                  const page = findPageRoute(item.route)!;
                  return (
                    <List.Item>
                      <List.Item.Meta
                        title={<Link to={`/page/${item.route}`}>{t(page.titleKey)}</Link>}
                        description={t('ui.home.visits', {
                          count: item.visits,
                          time: formatDateTime(item.lastVisitedAt, language, timeZone),
                        })}
                      />
                    </List.Item>
                  );
                }}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ui.home.noShortcuts')} />
            )}
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Suspense fallback={null}>
          <HomeCharts activity={activity} work={openWork} statusLabel={statusLabel} />
        </Suspense>
      </Row>
    </div>
  );
}
