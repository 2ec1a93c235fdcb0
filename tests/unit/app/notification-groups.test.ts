import { describe, expect, it } from 'vitest';
import { dayIn, groupByDay, parseEventFrames } from '../../../src/app/shell/notification-groups';

const item = (id: number, createdAt: string) => ({ id, createdAt });

describe('notification groups (latest N, today, yesterday)', () => {
  it('splits by the calendar day of the user’s time zone, keeping the order', () => {
    const now = new Date('2026-03-10T02:30:00Z'); // 10 March 11:30 in Tokyo, 9 March 22:30 in New York
    const items = [item(4, '2026-03-10T01:00:00Z'), item(3, '2026-03-09T16:00:00Z'), item(2, '2026-03-09T10:00:00Z'), item(1, '2026-03-08T10:00:00Z')];
    const tokyo = groupByDay(items, 'Asia/Tokyo', now);
    expect(tokyo.map((g) => [g.group, g.items.map((i) => i.id)])).toEqual([
      ['today', [4, 3]],
      ['yesterday', [2]],
      ['earlier', [1]],
    ]);
    const newYork = groupByDay(items, 'America/New_York', now);
    expect(newYork.map((g) => [g.group, g.items.map((i) => i.id)])).toEqual([
      ['today', [4, 3, 2]],
      ['yesterday', [1]],
    ]);
  });

  it('finds yesterday across a month end and leaves out empty groups', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(groupByDay([item(1, '2026-02-28T12:00:00Z')], 'UTC', now)).toEqual([{ group: 'yesterday', items: [item(1, '2026-02-28T12:00:00Z')] }]);
    expect(groupByDay([], 'UTC', now)).toEqual([]);
  });

  it('counts an unknown time zone as UTC instead of failing', () => {
    expect(dayIn(new Date('2026-03-01T23:30:00Z'), 'Not/AZone')).toBe('2026-03-01');
  });

  it('reads complete server-sent event frames and keeps the unfinished rest', () => {
    const { events, rest } = parseEventFrames('retry: 3000\n\nevent: ready\ndata: {}\n\n: keep-alive\n\nevent: notification\ndata: {"kind":"raised"}\n\nevent: notif');
    expect(events).toEqual(['ready', 'notification']);
    expect(rest).toBe('event: notif');
  });
});
