/** "14:05:09" for a time today, else the date too; "—" for none. */
export function formatTime(epochMs: number | null, now = Date.now()): string {
  if (epochMs === null) return '—';
  const date = new Date(epochMs);
  const sameDay = new Date(now).toDateString() === date.toDateString();
  return sameDay ? date.toLocaleTimeString() : date.toLocaleString();
}
