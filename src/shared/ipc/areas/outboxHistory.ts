/**
 * The outbox's history (issue 19): what the replay delivered to the service, kept 30 days, with
 * the request that went and the service's answer; a page of it at a time, searched and filtered by
 * kind, and exported as CSV or JSON. contract.ts composes it with the outbox's other requests.
 */
import { z } from 'zod';
import { request } from '../contractSpec';
import { OpKind } from './outbox';

/** Ours: days a delivered change stays in the history. */
export const HISTORY_DAYS = 30;
/** Ours: characters kept of a request's body and of an answer (their whole length is kept too). */
export const HISTORY_BODY_MAX = 4000;
/** Ours: rows one page of the history shows. */
export const HISTORY_PAGE_MAX = 200;
/** Ours: rows one export takes (each carries up to two bounded bodies). */
export const HISTORY_EXPORT_MAX = 10_000;
/** Ours: characters kept of a comment change's comment (the view shows its start). */
export const HISTORY_COMMENT_MAX = 200;
/** Ours: characters of a search (a name, a field, text of a body). */
export const HISTORY_SEARCH_MAX = 200;

/** One delivery: what went to the service and what it answered. */
export const HistoryEntry = z.object({
  id: z.number().int().positive(),
  /** The operation it delivered (its number in the Outbox while it waited). */
  opId: z.number().int().positive(),
  portalId: z.string(),
  moduleId: z.string(),
  /** The record's server id (a created record's new one); `module:<id>` for configuration. */
  recordId: z.string(),
  /** The record's name when it went, or a configuration change's one-line summary. */
  recordName: z.string().nullable(),
  module: z.string().nullable(),
  kind: OpKind,
  /** Configuration changes: what they did (`module.create`, ...). */
  action: z.string().nullable(),
  fields: z.array(z.object({ field: z.string(), label: z.string() })),
  /**
   * Comment changes: the comment's text when it went (a delete's as it was last seen), at most
   * HISTORY_COMMENT_MAX characters; null for other changes (and rows kept from before).
   */
  comment: z.string().nullable(),
  queuedAt: z.string(),
  sentAt: z.string().nullable(),
  answeredAt: z.string(),
  /** The request that delivered it; a read when nothing had to be sent again (see `note`). */
  method: z.string().nullable(),
  path: z.string().nullable(),
  /** At most HISTORY_BODY_MAX characters of the body sent; `requestLength` is its whole size. */
  requestBody: z.string().nullable(),
  requestLength: z.number().int().nonnegative(),
  status: z.number().int().nullable(),
  /** At most HISTORY_BODY_MAX characters of the answer; `answerLength` is its whole size. */
  answer: z.string().nullable(),
  answerLength: z.number().int().nonnegative(),
  /** Change requests the delivery sent (a layout change may send several; the last is shown). */
  requests: z.number().int().nonnegative(),
  note: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** What the history view asks for: words to find, kinds to keep. */
export const HistoryQuery = z
  .object({
    /** Found in the record's name, module, fields, comment, kind, action, path, request or answer. */
    text: z
      .string()
      .max(HISTORY_SEARCH_MAX, `a search of at most ${HISTORY_SEARCH_MAX} characters`)
      .optional(),
    /** Only these kinds; every kind when left out. */
    kinds: z.array(OpKind).min(1, 'choose at least one kind').max(OpKind.options.length).optional(),
  })
  .strict();
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const HistoryPage = z.object({
  entries: z.array(HistoryEntry),
  /** Rows matching the query, every page. */
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
});
export type HistoryPage = z.infer<typeof HistoryPage>;

export const HistoryFormat = z.enum(['csv', 'json']);
export type HistoryFormat = z.infer<typeof HistoryFormat>;

export const outboxHistoryRequests = {
  'outbox.history': request(
    HistoryQuery.extend({
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(HISTORY_PAGE_MAX).default(100),
    }).strict(),
    HistoryPage,
    'What the replay delivered in the last 30 days, newest first: a page, searched and filtered.',
  ),
  'outbox.exportHistory': request(
    HistoryQuery.extend({ format: HistoryFormat }).strict(),
    z.object({ fileName: z.string(), text: z.string(), rows: z.number().int().nonnegative() }),
    "The history's rows matching a search, as a CSV or JSON file's text.",
  ),
} as const;
