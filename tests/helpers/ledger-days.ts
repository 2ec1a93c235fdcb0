/**
 * A period of the transaction log that holds today's rows whatever the server's warehouse time zone:
 * the log takes the warehouse's calendar days (the demo warehouses keep Hong Kong time), so the
 * test's own UTC date can be a day behind or ahead of it. Yesterday to tomorrow in UTC covers both.
 */
export function ledgerDays(): { from: string; to: string } {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return { from: day(-1), to: day(1) };
}
