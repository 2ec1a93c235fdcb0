import { useState, type ReactNode } from 'react';
import { Badge, Button, Empty, List, Space, Tooltip } from 'antd';
import { DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { ValidationProblem } from '../../../../engine/schema/index.js';
import { problemsUnder } from '../problems';
import { PropertyForm, type PropertySpec } from './PropertyForm';

type Obj = Record<string, unknown>;

function SortableRow({ id, children, testId }: { id: string; children: ReactNode; testId: string }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <div
      ref={setNodeRef}
      data-testid={testId}
      style={{ transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined, transition, opacity: isDragging ? 0.6 : 1, display: 'flex', alignItems: 'center', gap: 6 }}
    >
      <span {...attributes} {...listeners} style={{ cursor: 'grab' }} data-testid={`${testId}-handle`}>
        <HolderOutlined />
      </span>
      {children}
    </div>
  );
}

export interface ItemListEditorProps {
  items: Obj[];
  onChange: (next: Obj[]) => void;
  path: string;
  properties: PropertySpec[];
  problems: ValidationProblem[];
  nameOf: (item: Obj, index: number) => string;
  newItem: (items: Obj[]) => Obj;
  testId: string;
  /** More editors for the selected item (e.g. the query builder of a query condition). */
  extra?: (item: Obj, index: number, update: (next: Obj) => void) => ReactNode;
  sortable?: boolean;
}

/**
 * A list of definition items (fields, behaviours, sub-pages, ...) ordered by drag and drop
 * (dnd-kit, pointer and keyboard), with the selected item's property panel beside it.
 */
export function ItemListEditor({ items, onChange, path, properties, problems, nameOf, newItem, testId, extra, sortable = true }: ItemListEditorProps) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState(0);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const ids = items.map((_, i) => `item-${i}`);
  const current = items[selected] as Obj | undefined;
  const update = (index: number, next: Obj) => onChange(items.map((item, i) => (i === index ? next : item)));

  const onDragEnd = (event: DragEndEvent) => {
    const from = ids.indexOf(String(event.active.id));
    const to = event.over ? ids.indexOf(String(event.over.id)) : -1;
    if (from < 0 || to < 0 || from === to) return;
    const moved = arrayMove(items, from, to);
    // The order is the list's order; an explicit `sequence` is renumbered to match it.
    onChange(moved.map((item, i) => ('sequence' in item ? { ...item, sequence: i + 1 } : item)));
    setSelected(to);
  };

  const row = (item: Obj, index: number) => {
    const count = problemsUnder(problems, `${path}/${index}`).length;
    const content = (
      <Space style={{ flex: 1, justifyContent: 'space-between', width: '100%' }}>
        <Badge dot={count > 0} status="error">
          <span style={{ fontWeight: index === selected ? 600 : 400 }}>{nameOf(item, index)}</span>
        </Badge>
        <Tooltip title={t('ui.designer.remove')}>
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            data-testid={`${testId}-remove-${index}`}
            onClick={(e) => {
              e.stopPropagation();
              onChange(items.filter((_, i) => i !== index));
              setSelected(Math.max(0, Math.min(selected, items.length - 2)));
            }}
          />
        </Tooltip>
      </Space>
    );
    return (
      <List.Item key={ids[index]} onClick={() => setSelected(index)} style={{ cursor: 'pointer', padding: '4px 8px', background: index === selected ? '#e6f4ff' : undefined }}>
        {sortable ? (
          <SortableRow id={ids[index]} testId={`${testId}-row-${index}`}>
            {content}
          </SortableRow>
        ) : (
          <div data-testid={`${testId}-row-${index}`} style={{ width: '100%' }}>
            {content}
          </div>
        )}
      </List.Item>
    );
  };

  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }} data-testid={testId}>
      <div style={{ width: 280, flex: 'none' }}>
        <Button
          icon={<PlusOutlined />}
          size="small"
          data-testid={`${testId}-add`}
          style={{ marginBottom: 8 }}
          onClick={() => {
            onChange([...items, newItem(items)]);
            setSelected(items.length);
          }}
        >
          {t('ui.designer.add')}
        </Button>
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={ids} strategy={verticalListSortingStrategy}>
            <List size="small" bordered dataSource={items} renderItem={(item, index) => row(item, index)} locale={{ emptyText: <Empty description={t('ui.designer.empty')} /> }} />
          </SortableContext>
        </DndContext>
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>
        {current ? (
          <>
            <PropertyForm
              key={selected}
              value={current}
              onChange={(next) => update(selected, next)}
              properties={properties}
              basePath={`${path}/${selected}`}
              problems={problems}
              testIdPrefix={`${testId}-prop`}
            />
            {extra?.(current, selected, (next) => update(selected, next))}
          </>
        ) : null}
      </div>
    </div>
  );
}
