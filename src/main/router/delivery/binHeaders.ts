import { MAX_BIN_HEADERS, MAX_BIN_HEADER_BYTES } from '../../../shared/ipc/areas/router';
import { dictionary } from '@portaldesk/portal-api/json/dictionary';

/** The headers a request bin keeps of a request, and how many it left out. */
export interface BinHeaders {
  headers: Record<string, string>;
  omitted: number;
}

const encoder = new TextEncoder();

/**
 * The headers a request bin keeps (issue 19): in the request's order, each one that still fits
 * within MAX_BIN_HEADERS headers and MAX_BIN_HEADER_BYTES (UTF-8 bytes of names and values);
 * one too large is left out and counted, and a smaller one after it may still be kept.
 */
export function boundBinHeaders(headers: Readonly<Record<string, string>>): BinHeaders {
  const kept = dictionary<string>();
  let count = 0;
  let bytes = 0;
  let omitted = 0;
  for (const [name, value] of Object.entries(headers)) {
    const size = encoder.encode(name).length + encoder.encode(value).length;
    if (count < MAX_BIN_HEADERS && bytes + size <= MAX_BIN_HEADER_BYTES) {
      kept[name] = value;
      count += 1;
      bytes += size;
    } else {
      omitted += 1;
    }
  }
  return { headers: kept, omitted };
}

/** The stored text of a bin entry's headers: `{"headers": {...}, "omitted": n}`. */
export function binHeadersText(headers: Readonly<Record<string, string>>): string {
  return JSON.stringify(boundBinHeaders(headers));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A bin entry's stored headers. Entries stored before issue 19 hold the headers object itself
 * (every value a string, nothing left out); since then `{headers, omitted}`, told apart by
 * `headers` holding an object, which no header value can.
 */
export function readBinHeaders(text: string): BinHeaders {
  const parsed: unknown = JSON.parse(text);
  if (!isObject(parsed)) return { headers: dictionary(), omitted: 0 };
  const inner = Object.hasOwn(parsed, 'headers') ? parsed.headers : undefined;
  const stored = isObject(inner) ? inner : parsed;
  const count = Object.hasOwn(parsed, 'omitted') ? parsed.omitted : undefined;
  const omitted = isObject(inner) && typeof count === 'number' ? count : 0;
  const headers = dictionary<string>();
  for (const [name, value] of Object.entries(stored)) {
    if (typeof value === 'string') headers[name] = value;
  }
  return { headers, omitted };
}
