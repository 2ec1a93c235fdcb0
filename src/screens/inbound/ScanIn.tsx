import { useEffect, useState } from 'react';
import { Button, Card, Input, Popconfirm, Progress, Radio, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContainerCarton, ContainerSku, ReceiveResult, ScanWay } from '../../common/inbound-api';
import { ReceiptLinks } from './ReceiptLinks';
import { ApiError, showSuccess } from '../../app/public';
import { CompactTable, textColumns } from '../../app/public-widgets';
import { FeedbackLine, ScanField, messageOf, useFeedback } from './handheld';
import { qtyColumn } from './columns';
import * as calls from './inbound-calls';

/** What the operator typed for one carton of a whole-container scan. */
type CartonEntry = { epc: string; antiCounterfeitCode: string };

/**
 * Scan-in (/scanin/*, /scan/*), in one of the ways the server offers (/scanIn/way): carton by
 * carton (a carton id with its EPC, carton type and anti-counterfeit code), or a whole container
 * (its id, then each carton's EPC and anti-counterfeit code and a carton type common to all, scanned
 * in one go: one carton that fails refuses the container). The screen shows the cartons and SKUs of
 * the container and what is scanned so far against what is received (/scan/show), refreshed after
 * every scan; it converts the scanned cartons to a receipt at a location, cancels a scan, or deletes
 * a container id.
 */
export default function ScanIn() {
  const { t } = useTranslation();
  const [containerId, setContainerId] = useState<string | null>(null);
  const [lastCode, setLastCode] = useState<string | null>(null);
  const [cartons, setCartons] = useState<ContainerCarton[]>([]);
  const [skus, setSkus] = useState<ContainerSku[]>([]);
  const [location, setLocation] = useState('');
  const [lpn, setLpn] = useState('');
  const [epc, setEpc] = useState('');
  const [cartonType, setCartonType] = useState('');
  const [antiCounterfeitCode, setAntiCounterfeitCode] = useState('');
  const [made, setMade] = useState<ReceiveResult[]>([]);
  const [ways, setWays] = useState<ScanWay[]>([]);
  const [way, setWay] = useState<ScanWay>('carton');
  const [entries, setEntries] = useState<Record<string, CartonEntry>>({});
  const [progress, setProgress] = useState<ContainerSku[]>([]);
  const { feedback, setFeedback, tell, fail } = useFeedback();

  useEffect(() => {
    let live = true;
    calls
      .scanWays()
      .then((offered) => {
        if (!live) return;
        setWays(offered);
        // Carton by carton unless the server offers only the other way.
        if (!offered.includes('carton') && offered.length > 0) setWay(offered[0]);
      })
      .catch((error: unknown) => {
        if (live) fail(error);
      });
    return () => {
      live = false;
    };
  }, [fail]);

  const refresh = async (id: string) => {
    const [table, list, shown] = await Promise.all([calls.containerCartons(id), calls.containerSkus(id), calls.scannedSoFar(id)]);
    setCartons(table.cartons);
    setSkus(list.skus);
    setProgress(shown.skus);
  };

  /** A refusal of a whole-container scan names the carton that failed. */
  const failScan = (error: unknown) => {
    const cartonId = error instanceof ApiError ? error.body.params?.cartonId : undefined;
    fail(cartonId !== undefined ? t('inb.ui.cartonProblem', { cartonId, message: messageOf(error) }) : error);
  };

  /** The whole-container way: the scanned id opens the container, whose cartons then get their EPC and code. */
  const openContainer = async (code: string) => {
    try {
      const id = code.trim();
      await refresh(id);
      setContainerId(id);
      setEntries({});
      tell('success', t('inb.ui.containerOpened', { code: id }));
    } catch (error) {
      fail(error);
    }
  };

  const scanContainer = async () => {
    if (!containerId) return;
    try {
      const answer = await calls.scanInCode(containerId, {
        cartonType: cartonType.trim(),
        cartons: Object.entries(entries).map(([cartonId, entry]) => ({ cartonId, epc: entry.epc.trim(), antiCounterfeitCode: entry.antiCounterfeitCode.trim() })),
      });
      setLastCode(containerId);
      setEntries({});
      await refresh(answer.containerId);
      tell('success', t('inb.ui.scanned', { code: containerId }));
    } catch (error) {
      failScan(error);
    }
  };

  const entryOf = (cartonId: string): CartonEntry => entries[cartonId] ?? { epc: '', antiCounterfeitCode: '' };
  const setEntry = (cartonId: string, change: Partial<CartonEntry>) => setEntries((all) => ({ ...all, [cartonId]: { ...entryOf(cartonId), ...all[cartonId], ...change } }));

  const scan = async (code: string) => {
    try {
      const answer = await calls.scanInCode(code.trim(), { epc: epc.trim(), cartonType: cartonType.trim(), antiCounterfeitCode: antiCounterfeitCode.trim() });
      if (answer.kind === 'carton') {
        setEpc('');
        setAntiCounterfeitCode('');
      }
      setContainerId(answer.containerId);
      setLastCode(code.trim());
      await refresh(answer.containerId);
      tell('success', t('inb.ui.scanned', { code: code.trim() }));
    } catch (error) {
      failScan(error);
    }
  };

  const convert = async () => {
    if (!containerId) return;
    try {
      const answer = await calls.receiveContainer(containerId, location.trim(), lpn.trim() || null);
      const text = t('inb.ui.batchReceived', { receipts: calls.receiptNos(answer) });
      void showSuccess({ type: 'success', content: text });
      setFeedback({ tone: 'success', text });
      setMade(answer.receipts);
      await refresh(containerId);
    } catch (error) {
      fail(error);
    }
  };

  const cancel = async () => {
    if (!lastCode || !containerId) return;
    try {
      await calls.cancelScan(lastCode);
      await refresh(containerId);
      tell('warning', t('inb.ui.scanCancelled', { code: lastCode }));
    } catch (error) {
      fail(error);
    }
  };

  const remove = async () => {
    if (!containerId) return;
    try {
      await calls.deleteContainer(containerId);
      tell('warning', t('inb.ui.containerDeleted', { code: containerId }));
      setCartons([]);
      setSkus([]);
      setProgress([]);
      setContainerId(null);
    } catch (error) {
      fail(error);
    }
  };

  return (
    <div data-testid="scan-in" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      {ways.length > 1 && (
        <Space>
          <Typography.Text>{t('inb.ui.scanWay')}</Typography.Text>
          <Radio.Group
            data-testid="scanin-way"
            optionType="button"
            value={way}
            onChange={(e) => {
              setWay(e.target.value as ScanWay);
              setEntries({});
            }}
            options={ways.map((w) => ({ value: w, label: <span data-testid={`scanin-way-${w}`}>{t(`inb.ui.way.${w}`)}</span> }))}
          />
        </Space>
      )}
      <div style={{ maxWidth: 360 }}>
        {way === 'container' ? (
          <ScanField key="container" testId="scanin-field" label={t('inb.ui.scanContainer')} onScan={(code) => void openContainer(code)} />
        ) : (
          <ScanField key="carton" testId="scanin-field" label={t('inb.ui.scanContainerOrCarton')} onScan={(code) => void scan(code)} />
        )}
      </div>
      <Space wrap>
        {way === 'carton' && (
          <Input data-testid="scanin-epc" placeholder={t('inb.ui.epcPlaceholder')} aria-label={t('inb.field.epc')} value={epc} onChange={(e) => setEpc(e.target.value)} style={{ width: 220 }} />
        )}
        <Input
          data-testid="scanin-carton-type"
          placeholder={t(way === 'container' ? 'inb.ui.cartonTypeAllPlaceholder' : 'inb.ui.cartonTypePlaceholder')}
          aria-label={t('inb.field.cartonType')}
          value={cartonType}
          onChange={(e) => setCartonType(e.target.value)}
          style={{ width: 220 }}
        />
        {way === 'carton' && (
          <Input
            data-testid="scanin-anti-counterfeit"
            placeholder={t('inb.ui.antiCounterfeitPlaceholder')}
            aria-label={t('inb.field.antiCounterfeitCode')}
            value={antiCounterfeitCode}
            onChange={(e) => setAntiCounterfeitCode(e.target.value)}
            style={{ width: 280 }}
          />
        )}
        {way === 'container' && containerId && (
          <Button type="primary" data-testid="scanin-container-scan" onClick={() => void scanContainer()}>
            {t('inb.ui.scanWholeContainer', { code: containerId })}
          </Button>
        )}
      </Space>
      <FeedbackLine feedback={feedback} />
      <ReceiptLinks receipts={made} />
      {containerId && (
        <>
          <Typography.Text strong>{t('inb.ui.container', { code: containerId })}</Typography.Text>
          <Card size="small" title={t('inb.ui.scannedSoFar')} data-testid="scanin-progress">
            <CompactTable<ContainerSku>
              rowKey="skuCode"
              dataSource={progress}
              columns={[
                ...textColumns<ContainerSku>(t, [['inb.field.sku', 'skuCode']]),
                qtyColumn<ContainerSku>(t('inb.field.expectedQty'), (s) => s.qty),
                { title: t('inb.ui.scannedQty'), render: (_, s) => <span data-testid={`scanin-scanned-${s.skuCode}`}>{Number(s.scannedQty)}</span> },
                { title: t('inb.field.receivedQty'), render: (_, s) => <span data-testid={`scanin-received-${s.skuCode}`}>{Number(s.receivedQty)}</span> },
                {
                  title: t('inb.ui.doneShare'),
                  render: (_, s) => (
                    <Progress
                      size="small"
                      style={{ width: 160, margin: 0 }}
                      percent={Number(s.qty) > 0 ? Math.round(((Number(s.scannedQty) + Number(s.receivedQty)) / Number(s.qty)) * 100) : 0}
                      success={{ percent: Number(s.qty) > 0 ? Math.round((Number(s.receivedQty) / Number(s.qty)) * 100) : 0 }}
                    />
                  ),
                },
              ]}
            />
          </Card>
          <CompactTable<ContainerSku>
            rowKey="skuCode"
            dataSource={skus}
            columns={[
              ...textColumns<ContainerSku>(t, [
                ['inb.field.sku', 'skuCode'],
                ['inb.field.description', 'description'],
                ['inb.ui.cartons', 'cartons'],
              ]),
              qtyColumn<ContainerSku>(t('inb.field.expectedQty'), (s) => s.qty),
            ]}
          />
          <CompactTable<ContainerCarton>
            rowKey="id"
            dataSource={cartons}
            columns={[
              ...textColumns<ContainerCarton>(t, [
                ['inb.field.cartonId', 'carton_id'],
                ['inb.field.asnNo', 'asn_no'],
                ['inb.field.sku', 'sku_code'],
              ]),
              qtyColumn<ContainerCarton>(t('inb.field.qty'), (c) => c.qty),
              {
                title: t('inb.field.epc'),
                render: (_, c) =>
                  way === 'container' && c.status !== 'received' ? (
                    <Input
                      size="small"
                      data-testid={`scanin-epc-${c.carton_id}`}
                      aria-label={`${t('inb.field.epc')} ${c.carton_id}`}
                      placeholder={c.epc ?? t('inb.ui.epcPlaceholder')}
                      value={entryOf(c.carton_id).epc}
                      onChange={(e) => setEntry(c.carton_id, { epc: e.target.value })}
                      style={{ width: 160 }}
                    />
                  ) : (
                    c.epc
                  ),
              },
              { title: t('inb.field.cartonType'), dataIndex: 'carton_type' },
              ...(way === 'container'
                ? [
                    {
                      title: t('inb.field.antiCounterfeitCode'),
                      render: (_: unknown, c: ContainerCarton) =>
                        c.status !== 'received' ? (
                          <Input
                            size="small"
                            data-testid={`scanin-anti-counterfeit-${c.carton_id}`}
                            aria-label={`${t('inb.field.antiCounterfeitCode')} ${c.carton_id}`}
                            placeholder={c.anti_counterfeit_code ?? t('inb.ui.antiCounterfeitPlaceholder')}
                            value={entryOf(c.carton_id).antiCounterfeitCode}
                            onChange={(e) => setEntry(c.carton_id, { antiCounterfeitCode: e.target.value })}
                            style={{ width: 200 }}
                          />
                        ) : (
                          c.anti_counterfeit_code
                        ),
                    },
                  ]
                : []),
              { title: t('inb.field.status'), render: (_, c) => <Tag data-testid={`carton-${c.carton_id}`}>{t(`inb.cartonStatus.${c.status}`)}</Tag> },
            ]}
          />
          <Space wrap>
            <Input data-testid="scanin-location" placeholder={t('inb.field.location')} value={location} onChange={(e) => setLocation(e.target.value)} style={{ width: 160 }} />
            <Input data-testid="scanin-lpn" placeholder={t('inb.field.lpn')} value={lpn} onChange={(e) => setLpn(e.target.value)} style={{ width: 160 }} />
            <Button type="primary" data-testid="scanin-convert" onClick={() => void convert()}>
              {t('inb.ui.convertToReceipt')}
            </Button>
            <Button data-testid="scanin-cancel" onClick={() => void cancel()} disabled={!lastCode}>
              {t('inb.ui.cancelScan')}
            </Button>
            <Popconfirm title={t('inb.ui.deleteContainerConfirm', { code: containerId })} onConfirm={() => void remove()}>
              <Button danger data-testid="scanin-delete">
                {t('inb.ui.deleteContainer')}
              </Button>
            </Popconfirm>
          </Space>
        </>
      )}
    </div>
  );
}
