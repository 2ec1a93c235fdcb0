import { useEffect, useRef } from 'react';
import { theme } from 'antd';

/**
 * One chart drawn by echarts, coloured with the application's theme. echarts is loaded when the first
 * chart shows (never with the sign-in page); the chart follows the window's size and is disposed with
 * the component. `option` is echarts' option object; its own colours, text style or grid win.
 */
export function EChart({ option, testId, height = 240 }: { option: Record<string, unknown>; testId: string; height?: number }) {
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
      instance.setOption({
        color: [token.colorPrimary, token.colorSuccess, token.colorWarning, token.colorError, token.colorInfo],
        textStyle: { fontFamily: token.fontFamily, color: token.colorText },
        grid: { left: 48, right: 16, top: 32, bottom: 32 },
        ...option,
      });
      window.addEventListener('resize', onResize);
    });
    return () => {
      disposed = true;
      window.removeEventListener('resize', onResize);
      chart?.dispose();
    };
  }, [option, token]);
  return <div ref={box} style={{ width: '100%', height }} data-testid={testId} />;
}
