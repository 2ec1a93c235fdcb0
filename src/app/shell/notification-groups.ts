import type { NotificationView } from '../../common/api-types';

/** A notification as the bell and the notification list show it: the server's answer as it comes. */
export type NotificationItem = NotificationView;

export type DayGroup = 'today' | 'yesterday' | 'earlier';

/** The calendar day (YYYY-MM-DD) of an instant in a time zone; an unknown zone counts as UTC. */
export function dayIn(instant: Date, timeZone: string): string {
  const format = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
  try {
    return format(timeZone);
  } catch {
    return format('UTC');
  }
}

function previousDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/**
 * Splits notifications into today, yesterday and earlier as the calendar reads in the user's time
 * zone, keeping their order; empty groups are left out.
 */
export function groupByDay<T extends { createdAt: string }>(items: readonly T[], timeZone: string, now: Date = new Date()): Array<{ group: DayGroup; items: T[] }> {
  const today = dayIn(now, timeZone);
  const yesterday = previousDay(today);
  const groups: Record<DayGroup, T[]> = { today: [], yesterday: [], earlier: [] };
  for (const item of items) {
    const day = dayIn(new Date(item.createdAt), timeZone);
    groups[day === today ? 'today' : day === yesterday ? 'yesterday' : 'earlier'].push(item);
  }
  return (['today', 'yesterday', 'earlier'] as const).filter((group) => groups[group].length).map((group) => ({ group, items: groups[group] }));
}

/** Splits a server-sent events text into its complete frames' event names; answers them and the unfinished rest. */
export function parseEventFrames(buffer: string): { events: string[]; rest: string } {
  const events: string[] = [];
  const frames = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = frames.pop() ?? '';
  for (const frame of frames) {
    let event = 'message';
    let hasData = false;
    for (const line of frame.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) hasData = true;
    }
    if (hasData) events.push(event);
  }
  return { events, rest };
}
