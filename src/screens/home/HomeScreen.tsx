import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Col, Empty, List, Row, Space, Statistic, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LANGUAGES } from '../../common/languages';
import { findDeclaredRoute } from '../../common/page-routes';
import { api, formatDateTime, useSession } from '../../app/public';

interface WorkSummary {
  kind: 'asn' | 'order' | 'task' | 'count' | 'putaway';
  available: boolean;
  total: number;
  byStatus: { status: string; count: number }[];
}

interface Shortcut {
  route: string;
  visits: number;
  lastVisitedAt: string;
}

/**
 * The start page of a signed-in user (issue 4, item 10): who and where they are, the open work of
 * their warehouse by kind and status, and shortcuts to the pages they open most.
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const status = useSession((s) => s.status);
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  const [work, setWork] = useState<WorkSummary[] | null>(null);
  const [shortcuts, setShortcuts] = useState<Shortcut[] | null>(null);

  const load = useCallback(() => {
    api<{ work: WorkSummary[] }>('/home/summary')
      .then((answer) => setWork(answer.work))
      .catch(() => setWork([]));
    api<{ items: Shortcut[] }>('/home/shortcuts')
      .then((answer) => setShortcuts(answer.items.filter((item) => findDeclaredRoute(item.route))))
      .catch(() => setShortcuts([]));
  }, []);

  useEffect(load, [load]);

  const timeZone = status?.user.timeZone ?? 'UTC';
  const openWork = (work ?? []).filter((w) => w.total > 0);
  const statusLabel = (kind: string, value: string): string => {
    switch (kind) {
      case 'asn':
        return t(`inb.status.${value}`, { defaultValue: value });
      case 'putaway':
        return t('inb.receiptStatus.open');
      case 'order':
        return t(`outbound.status.${value}`, { defaultValue: value });
      case 'wave':
        return t(`outbound.wave.status.${value}`, { defaultValue: value });
      case 'pick':
        return t(`outbound.pick.status.${value}`, { defaultValue: value });
      default:
        return value;
    }
  };

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
                    <Statistic title={t(`ui.home.source.${w.kind}`)} value={w.total} />
                    <Space wrap size={[4, 4]} style={{ marginTop: 8 }}>
                      {w.byStatus.map((s) => (
                        <Tag key={s.status}>
                          {statusLabel(w.kind, s.status)}: {s.count}
                        </Tag>
                      ))}
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
                  const page = findDeclaredRoute(item.route)!;
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
    </div>
  );
}
