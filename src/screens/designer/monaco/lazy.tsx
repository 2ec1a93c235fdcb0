import { lazy, Suspense, type ComponentProps } from 'react';
import { Spin } from 'antd';
import type { JsonDiff as JsonDiffType, JsonEditor as JsonEditorType, SqlEditor as SqlEditorType } from './MonacoEditors';

// Monaco only through React.lazy: its chunk loads when one of these first renders.
const LazySql = lazy(() => import('./MonacoEditors').then((m) => ({ default: m.SqlEditor })));
const LazyJson = lazy(() => import('./MonacoEditors').then((m) => ({ default: m.JsonEditor })));
const LazyDiff = lazy(() => import('./MonacoEditors').then((m) => ({ default: m.JsonDiff })));

export function SqlEditor(props: ComponentProps<typeof SqlEditorType>) {
  return (
    <Suspense fallback={<Spin />}>
      <LazySql {...props} />
    </Suspense>
  );
}

export function JsonEditor(props: ComponentProps<typeof JsonEditorType>) {
  return (
    <Suspense fallback={<Spin />}>
      <LazyJson {...props} />
    </Suspense>
  );
}

export function JsonDiff(props: ComponentProps<typeof JsonDiffType>) {
  return (
    <Suspense fallback={<Spin />}>
      <LazyDiff {...props} />
    </Suspense>
  );
}
