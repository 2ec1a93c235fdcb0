import Decimal from 'decimal.js';
import type { ResPlanLine } from '../../common/resplan-api';

/** Colour of a bar whose activity needs more hours than its shift has. */
export const OVER_CAPACITY_COLOR = '#cf1322';

export interface ChartTexts {
  activity: (activity: string) => string;
  total: string;
  requiredLabour: string;
  availableLabour: string;
  requiredEquipment: string;
  availableEquipment: string;
}

/** The hours of each activity of a plan and of the whole shift (the last bar), as the chart shows them. */
export function chartBars(lines: readonly ResPlanLine[]) {
  const sum = (pick: (line: ResPlanLine) => string) => lines.reduce((total, line) => total.plus(pick(line)), new Decimal(0)).toNumber();
  const bars = lines.map((line) => ({
    key: line.activity,
    requiredLabour: Number(line.labourHours),
    availableLabour: Number(line.availableLabourHours),
    requiredEquipment: Number(line.equipmentHours),
    availableEquipment: Number(line.availableEquipmentHours),
    over: line.overCapacity,
  }));
  const total = {
    key: 'total',
    requiredLabour: sum((l) => l.labourHours),
    availableLabour: sum((l) => l.availableLabourHours),
    requiredEquipment: sum((l) => l.equipmentHours),
    availableEquipment: sum((l) => l.availableEquipmentHours),
    over: lines.some((l) => l.overCapacity),
  };
  return [...bars, total];
}

/**
 * The echarts option of a plan's chart: per activity and for the shift, the labour and equipment
 * hours required beside those available; a required bar of an activity over capacity is red.
 */
export function chartOption(lines: readonly ResPlanLine[], texts: ChartTexts): Record<string, unknown> {
  const bars = chartBars(lines);
  const required = (value: number, over: boolean) => (over ? { value, itemStyle: { color: OVER_CAPACITY_COLOR } } : value);
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 48, right: 16, top: 40, bottom: 32 },
    xAxis: { type: 'category', data: bars.map((b) => (b.key === 'total' ? texts.total : texts.activity(b.key))) },
    yAxis: { type: 'value' },
    series: [
      { name: texts.requiredLabour, type: 'bar', data: bars.map((b) => required(b.requiredLabour, b.over && b.requiredLabour > b.availableLabour)) },
      { name: texts.availableLabour, type: 'bar', data: bars.map((b) => b.availableLabour) },
      { name: texts.requiredEquipment, type: 'bar', data: bars.map((b) => required(b.requiredEquipment, b.over && b.requiredEquipment > b.availableEquipment)) },
      { name: texts.availableEquipment, type: 'bar', data: bars.map((b) => b.availableEquipment) },
    ],
  };
}
