import { Cron } from 'croner';

/**
 * Quartz-style cron expressions: six or seven
 * fields, `seconds minutes hours day-of-month month day-of-week [year]`, with `?`, `L`, `W` and `#`,
 * weekdays 1-7 counted from Sunday as Quartz does (or SUN-SAT), and Quartz's `0/5` steps. Times are
 * those of the server's time zone.
 */
const OPTIONS = { paused: true, mode: '6-or-7-parts', alternativeWeekdays: true, sloppyRanges: true } as const;

export const CRON_MAX_LENGTH = 120;

export type CronCheck = { valid: true; cron: Cron } | { valid: false; reason: string };

/** Parses an expression; an expression that will never fire again is not valid either. */
export function checkCronExpression(expression: string): CronCheck {
  const text = expression.trim();
  if (text === '') return { valid: false, reason: 'the expression is empty' };
  if (text.length > CRON_MAX_LENGTH) return { valid: false, reason: `the expression is longer than ${CRON_MAX_LENGTH} characters` };
  let cron: Cron;
  try {
    cron = new Cron(text, OPTIONS);
  } catch (error) {
    return { valid: false, reason: (error as Error).message.replace(/^CronPattern: /, '') };
  }
  if (cron.nextRun() === null) return { valid: false, reason: 'the expression has no future run time' };
  return { valid: true, cron };
}

/** The next `count` run times strictly after `from`. */
export function nextRunTimes(cron: Cron, count: number, from: Date = new Date()): Date[] {
  return cron.nextRuns(count, from);
}
