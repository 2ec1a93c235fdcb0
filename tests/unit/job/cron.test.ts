import { describe, expect, it } from 'vitest';
import { checkCronExpression, nextRunTimes } from '../../../src/server/modules/job/cron.js';

/** Quartz-style expressions ("the expression must be valid"), evaluated by croner. */
function next(expression: string, from: string, count = 3): string[] {
  const check = checkCronExpression(expression);
  if (!check.valid) throw new Error(check.reason);
  return nextRunTimes(check.cron, count, new Date(from)).map((d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${d.toTimeString().slice(0, 8)}`);
}

describe(checkCronExpression.name, () => {
  it.each([
    ['0 0 12 ? * MON-FRI', '2026-11-20T13:00:00', ['2026-11-23 12:00:00', '2026-11-24 12:00:00', '2026-11-25 12:00:00']],
    ['0 0 12 L * ?', '2026-11-01T00:00:00', ['2026-11-30 12:00:00', '2026-12-31 12:00:00', '2027-01-31 12:00:00']],
    ['0 0 12 15W * ?', '2026-11-01T00:00:00', ['2026-11-16 12:00:00', '2026-12-15 12:00:00', '2027-01-15 12:00:00']],
    ['0 0 12 ? * 6#3', '2026-11-01T00:00:00', ['2026-11-20 12:00:00', '2026-12-18 12:00:00', '2027-01-15 12:00:00']],
    ['0 15 10 ? * 6L', '2026-11-01T00:00:00', ['2026-11-27 10:15:00', '2026-12-25 10:15:00', '2027-01-29 10:15:00']],
    ['0 0/20 8 * * ?', '2026-11-01T00:00:00', ['2026-11-01 08:00:00', '2026-11-01 08:20:00', '2026-11-01 08:40:00']],
    ['0 0 0 1 1 ? 2028', '2026-11-01T00:00:00', ['2028-01-01 00:00:00']],
  ])('%s runs as Quartz would', (expression, from, expected) => {
    expect(next(expression, from, expected.length)).toEqual(expected);
  });

  it.each([
    ['', 'empty'],
    ['every day', 'parts'],
    ['*/5 * * * *', '6 or 7 parts'],
    ['0 0 25 * * ?', 'hour'],
    ['0 0 0 1 1 ? 2001', 'no future run'],
    ['0 '.repeat(70), 'longer than'],
  ])('refuses "%s"', (expression, reason) => {
    const check = checkCronExpression(expression);
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.reason).toContain(reason);
  });
});
