import type { ReactNode } from 'react';
import { Col, Row, Space, Typography } from 'antd';

/**
 * The frame of a scan screen that serves handhelds and desks alike: its title, then the scan flow
 * beside the details at a desk, or the details under the flow when narrow (or while `stacked`).
 * Dialogs of the screen go in `children`, after both.
 */
export function ScanScreenLayout({
  testId,
  title,
  narrow,
  stacked = false,
  flow,
  details,
  children,
}: {
  testId: string;
  title: ReactNode;
  narrow: boolean;
  stacked?: boolean;
  flow: ReactNode;
  details: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div data-testid={testId} data-layout={narrow ? 'handheld' : 'desk'} style={{ maxWidth: narrow ? 360 : undefined, width: '100%' }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      {narrow || stacked ? (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          {flow}
          {details}
        </Space>
      ) : (
        <Row gutter={24}>
          <Col span={9}>{flow}</Col>
          <Col span={15}>{details}</Col>
        </Row>
      )}
      {children}
    </div>
  );
}
