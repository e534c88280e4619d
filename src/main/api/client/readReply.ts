/**
 * Reads a successful reply's text by the endpoint's reply shape. The envelope (the member that
 * holds the items, `page_info`) must be right or the whole reply is unreadable; list items are
 * checked one by one, so a malformed record is skipped and described while the others are kept.
 */
import { Count } from '@portaldesk/portal-api/domain/entity';
import {
  FIELD_OPTION_LISTS,
  type FieldOptionList,
  type FieldOptions,
} from '@portaldesk/portal-api/domain/fieldOption';
import { PageInfo } from '@portaldesk/portal-api/domain/pageInfo';
import {
  describeIssues,
  parseEach,
  type SkippedItem,
} from '@portaldesk/portal-api/domain/parseEach';
import type { z } from 'zod';
import type { ReplySpec } from './endpoints';
import { isBlank, parseJsonBytes } from './parseJsonBytes';

export type ReplyReading =
  { ok: true; value: unknown; skipped: SkippedItem[] } | { ok: false; problems: string[] };

/** The start of a text, on one line, for messages about what the server sent. */
export function snippet(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

const fail = (...problems: string[]): ReplyReading => ({ ok: false, problems });

function prefixed(prefix: string, error: z.ZodError): string[] {
  return describeIssues(error).map((line) => `${prefix}${line}`);
}

function asObject(body: unknown): Record<string, unknown> | null {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : null;
}

function readPageInfo(body: Record<string, unknown>): { pageInfo?: PageInfo; problems: string[] } {
  const parsed = PageInfo.safeParse(body.page_info);
  return parsed.success
    ? { pageInfo: parsed.data, problems: [] }
    : { problems: prefixed('page_info.', parsed.error) };
}

function readOptions(body: Record<string, unknown>, paged: boolean): ReplyReading {
  const options: FieldOptions = { custom_options: [], users: [], roles: [], statuses: [] };
  const skipped: SkippedItem[] = [];
  let received = 0;
  for (const name of Object.keys(FIELD_OPTION_LISTS) as FieldOptionList[]) {
    const raw = body[name];
    if (raw === undefined || raw === null) continue;
    if (!Array.isArray(raw)) return fail(`${name}: expected an array`);
    received += raw.length;
    const parsed = parseEach(FIELD_OPTION_LISTS[name], raw);
    (options[name] as unknown[]) = parsed.items;
    for (const item of parsed.skipped) {
      skipped.push({
        ...item,
        problems: item.problems.map((line) => `${name}[${item.index}] ${line}`),
      });
    }
  }
  // Not one of the option lists: a malformed role here is left out, never the reply.
  const availableRoles = Array.isArray(body.available_roles)
    ? parseEach(FIELD_OPTION_LISTS.roles, body.available_roles).items.map((role) => ({
        id: role.id,
        name: role.name,
      }))
    : [];
  let pageInfo: PageInfo | null = null;
  if (paged) {
    const info = readPageInfo(body);
    if (!info.pageInfo) return fail(...info.problems);
    pageInfo = info.pageInfo;
  }
  return { ok: true, value: { options, skipped, received, pageInfo, availableRoles }, skipped };
}

/** A reply's bytes, read by its shape; parsed without making them one string (parseJsonBytes). */
export function readReply(reply: ReplySpec, bytes: Uint8Array): ReplyReading {
  if (reply.kind === 'none') return { ok: true, value: undefined, skipped: [] };
  if (isBlank(bytes)) return fail('the reply was empty');
  let body: unknown;
  try {
    body = parseJsonBytes(bytes);
  } catch {
    const start = new TextDecoder().decode(bytes.subarray(0, 600));
    return fail(`the reply is not JSON: "${snippet(start)}"`);
  }

  if (reply.kind === 'bareList') {
    if (!Array.isArray(body)) return fail('expected an array');
    const parsed = parseEach(reply.schema, body);
    return { ok: true, value: { ...parsed, received: body.length }, skipped: parsed.skipped };
  }

  const object = asObject(body);
  if (!object) return fail('expected a JSON object');

  switch (reply.kind) {
    case 'object': {
      const parsed = reply.schema.safeParse(object);
      return parsed.success
        ? { ok: true, value: parsed.data, skipped: [] }
        : fail(...describeIssues(parsed.error));
    }
    case 'one': {
      if (!(reply.member in object)) return fail(`${reply.member}: missing`);
      const parsed = reply.schema.safeParse(object[reply.member]);
      return parsed.success
        ? { ok: true, value: parsed.data, skipped: [] }
        : fail(...prefixed(`${reply.member}.`, parsed.error));
    }
    case 'count': {
      const parsed = Count.safeParse(object);
      return parsed.success
        ? { ok: true, value: parsed.data.count, skipped: [] }
        : fail(...describeIssues(parsed.error));
    }
    case 'list':
    case 'items': {
      const raw = object[reply.member];
      if (!Array.isArray(raw)) return fail(`${reply.member}: expected an array`);
      const parsed = parseEach(reply.schema, raw);
      const value: Record<string, unknown> = { ...parsed, received: raw.length };
      if (reply.kind === 'list') {
        const info = readPageInfo(object);
        if (!info.pageInfo) return fail(...info.problems);
        value.pageInfo = info.pageInfo;
      }
      return { ok: true, value, skipped: parsed.skipped };
    }
    case 'options':
      return readOptions(object, reply.paged);
  }
}
