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

export function parseEach<S extends z.ZodType>(
  schema: S,
  raw: readonly unknown[],
): ParsedItems<z.output<S>> {
  const items: z.output<S>[] = [];
  const skipped: SkippedItem[] = [];
  raw.forEach((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) items.push(parsed.data);
    else skipped.push({ index, id: idOf(item), problems: describeIssues(parsed.error) });
  });
  return { items, skipped };
}
