import { z } from 'zod';

/**
 * A record (an object whose keys the sender chooses) of at most `max` keys, counted before any
 * key or value is checked. zod checks every entry first and makes a complaint of each wrong one:
 * an object of 80,000 wrong entries (1 MiB) held the engine for half a second to be refused.
 * Typed as the plain record it checks, as callers build it.
 */
export function boundedRecord<K extends z.core.$ZodRecordKey, V extends z.ZodType>(
  key: K,
  value: V,
  max: number,
  tooMany: string,
): z.ZodRecord<K, V> {
  const record = z.record(key, value);
  const counted = z.preprocess((input, ctx) => {
    if (typeof input === 'object' && input !== null && Object.keys(input).length > max) {
      ctx.addIssue({ code: 'custom', message: tooMany });
    }
    return input;
  }, record);
  return counted as unknown as z.ZodRecord<K, V>;
}
