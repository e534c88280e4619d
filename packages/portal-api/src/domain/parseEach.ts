/**
 * Lenient list parsing: each item of a list reply is checked on its own, so one malformed record
 * (a missing field, a wrong type) is skipped and reported while the rest of the page is kept.
 */
import type { z } from 'zod';

/** An item that did not match its schema: where it was, its id if it had one, and why. */
export interface SkippedItem {
  /** Position in the list the server sent (0-based). */
  index: number;
  id: string | null;
  /** One line per problem, e.g. `last_updated_time: expected string, received number`. */
  problems: string[];
}

export interface ParsedItems<T> {
  items: T[];
  skipped: SkippedItem[];
}

/** Zod's issues as short lines naming the member at fault. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    return where === '' ? issue.message : `${where}: ${issue.message}`;
  });
}

function idOf(item: unknown): string | null {
  if (typeof item !== 'object' || item === null) return null;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/**
 * A hand-written reader for the common shape of a schema's items: returns exactly what the schema
 * would (same values, same key order) or undefined when it is not sure, and the schema decides.
 */
export type FastParser<T> = (item: unknown) => T | undefined;

const fastParsers = new WeakMap<z.ZodType, FastParser<unknown>>();

/**
 * Registers a fast reader for a schema, used by parseEach before the schema itself. For lists
 * read in bulk (200 records a page), where the schema's generic checks cost more than the rest of
 * the page's work together.
 */
export function registerFastParser<S extends z.ZodType>(
  schema: S,
  fast: FastParser<z.output<S>>,
): void {
  fastParsers.set(schema, fast);
}

export function parseEach<S extends z.ZodType>(
  schema: S,
  raw: readonly unknown[],
): ParsedItems<z.output<S>> {
  const items: z.output<S>[] = [];
  const skipped: SkippedItem[] = [];
  const fast = fastParsers.get(schema) as FastParser<z.output<S>> | undefined;
  raw.forEach((item, index) => {
    const quick = fast?.(item);
    if (quick !== undefined) {
      items.push(quick);
      return;
    }
    const parsed = schema.safeParse(item);
    if (parsed.success) items.push(parsed.data);
    else skipped.push({ index, id: idOf(item), problems: describeIssues(parsed.error) });
  });
  return { items, skipped };
}
