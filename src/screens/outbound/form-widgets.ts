import type { ComponentType } from 'react';
import type { WidgetProps } from '@rjsf/utils';

/**
 * Form inputs this area brings to the engine's forms, by the field `format` that asks for them,
 * each a lazy chunk of its own (found by src/app/engine-services.tsx): `soSku`, the SKU of a sales
 * order line chosen among the order owner's SKUs with what the warehouse has available of each.
 */
export const formWidgets: Record<string, () => Promise<{ default: ComponentType<WidgetProps> }>> = {
  soSku: () => import('./SoSkuPicker'),
};
