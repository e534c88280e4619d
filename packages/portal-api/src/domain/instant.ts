/**
 * A service time as the mirror keeps it: the same instant written `YYYY-MM-DDTHH:mm:ss.SSSZ`
 * in UTC, the shape the spec's example gives ("Common conventions").
 *
 * The spec allows any ISO 8601 date-time ("such as"), so a time may come with an offset
 * (`+05:30`), without milliseconds, or with more digits. The mirror compares stored times as
 * text: a pulled copy replaces the stored one only if its `last_updated_time` is not older, and
 * lists filter and sort by time, and the overview counts weeks, all in SQL over indexed text.
 * Text orders instants only when every one is written the same way: `02:30:00.000-08:00` (10:30
 * UTC) sorts before `10:15:00.000Z`, so a newer copy was refused and the local copy stayed stale
 * without a word. Every time read from the service is written this one way instead.
 *
 * Digits past the millisecond are dropped (JavaScript's dates hold milliseconds): two changes
 * within one millisecond read as the same time, and the later pull still replaces the copy.
 * A time whose UTC year would pass 9999 (an offset west of UTC on 9999-12-31) is kept as sent:
 * it has no four-digit UTC form.
 */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Written the one way the mirror keeps times (`YYYY-MM-DDTHH:mm:ss.SSSZ`). */
export function isCanonicalInstant(text: string): boolean {
  return CANONICAL.test(text);
}

export function canonicalInstant(text: string): string {
  if (CANONICAL.test(text)) return text;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return text;
  const written = new Date(time).toISOString();
  return CANONICAL.test(written) ? written : text;
}
