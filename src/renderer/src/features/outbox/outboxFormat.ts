/**
 * How the Outbox view words operations and values. Pure, so it is tested without a DOM.
 */
import type { OpKind, OutboxEntry, PendingValue } from '../../../../shared/ipc/areas/outbox';

// One label for the change whatever became of it (queued, refused, delivered), so none says it
// happened: "Deleted comment" headed a delete still queued, or one the service refused.
const KIND: Record<OpKind, string> = {
  create: 'New record',
  update: 'Changed fields',
  trash: 'Move to trash',
  restore: 'Restore from trash',
  comment_add: 'New comment',
  comment_edit: 'Edited comment',
  comment_delete: 'Delete comment',
  config: 'Configuration change',
  delete: 'Delete for good',
};

export function kindLabel(kind: OpKind): string {
  return KIND[kind];
}

const COMMENT_KINDS: ReadonlySet<OpKind> = new Set([
  'comment_add',
  'comment_edit',
  'comment_delete',
]);

/** Ours: characters of a comment's start in a one-line summary (the Outbox shows it whole). */
export const COMMENT_START_MAX = 60;

/**
 * A comment's start on one line: runs of white space (line breaks too) as one space, cut at a
 * word within `max` characters (not splitting a character), "…" when cut.
 */
export function commentStart(text: string, max = COMMENT_START_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max).join('');
  // At a word's end: where the cut falls, else before the word it splits, unless that leaves
  // less than half.
  const space = chars[max] === ' ' ? cut.length : cut.lastIndexOf(' ');
  return `${(space >= cut.length / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * What a record or comment change is about, in words: the record by its name ("record <id>" when
 * the mirror has none); a comment change by its comment's start and the record it is on ("a
 * comment" when its text is not known: a delete queued before the text was kept).
 */
export function operationSubject(op: {
  kind: OpKind;
  recordId: string;
  recordName: string | null;
  comment: string | null;
}): string {
  const record = op.recordName ?? `record ${op.recordId}`;
  if (!COMMENT_KINDS.has(op.kind)) return record;
  const start = op.comment === null ? '' : commentStart(op.comment);
  return start === '' ? `a comment on ${record}` : `“${start}” on ${record}`;
}

export type EntryGroup = 'conflict' | 'failed' | 'sending' | 'pending';

/** Attention first: conflicts, refusals, then what is on its way. */
export const GROUP_ORDER: readonly EntryGroup[] = ['conflict', 'failed', 'sending', 'pending'];

export const GROUP_LABEL: Record<EntryGroup, string> = {
  conflict: 'Conflicts',
  failed: 'Refused by the service',
  sending: 'Sending',
  pending: 'Waiting to be sent',
};

export function groupEntries(entries: readonly OutboxEntry[]): Map<EntryGroup, OutboxEntry[]> {
  const groups = new Map<EntryGroup, OutboxEntry[]>(GROUP_ORDER.map((g) => [g, []]));
  for (const entry of entries) groups.get(entry.state)?.push(entry);
  return groups;
}

function zpuidName(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    const v = value as { name?: unknown; zpuid?: unknown };
    return typeof v.name === 'string' && v.name !== '' ? v.name : String(v.zpuid ?? '');
  }
  return String(value);
}

/** A value in one line of text: empty as "empty", lists joined, objects by their name. */
export function formatValue(type: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'empty';
    return value
      .map((item) => (typeof item === 'object' ? zpuidName(item) : String(item)))
      .join(', ');
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (type === 'currency' && typeof value === 'object') {
    const v = value as { formatted_amount?: unknown; amount?: unknown; currency_code?: unknown };
    return typeof v.formatted_amount === 'string'
      ? v.formatted_amount
      : `${String(v.currency_code ?? '')} ${String(v.amount ?? '')}`.trim();
  }
  if (type === 'status' && typeof value === 'object') {
    const v = value as { name?: unknown; id?: unknown };
    return typeof v.name === 'string' ? v.name : String(v.id ?? '');
  }
  if (typeof value === 'object') return zpuidName(value);
  return String(value);
}

/** "3 to send · 1 conflict" for the status bar; "" when the outbox is empty. */
export function outboxSummary(counts: {
  pending: number;
  sending: number;
  failed: number;
  conflict: number;
}): string {
  const parts: string[] = [];
  const waiting = counts.pending + counts.sending;
  if (waiting > 0) parts.push(`${waiting} to send`);
  if (counts.failed > 0) parts.push(`${counts.failed} refused`);
  if (counts.conflict > 0)
    parts.push(`${counts.conflict} conflict${counts.conflict === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

const STATE_TEXT: Record<PendingValue['state'], string> = {
  pending: 'waiting to be sent',
  sending: 'being sent',
  failed: 'refused by the service (see the Outbox)',
  conflict: 'in conflict with a change on the service (see the Outbox)',
};

/** The pending mark's tooltip: when the change was queued, its state, what the service had. */
export function pendingTooltip(pending: PendingValue, type: string, now = Date.now()): string {
  const queued = Date.parse(pending.queuedAt);
  const when = Number.isNaN(queued) ? pending.queuedAt : new Date(queued).toLocaleString();
  const age = Number.isNaN(queued)
    ? ''
    : ` (${Math.max(0, Math.round((now - queued) / 60_000))} min ago)`;
  return `Changed offline, ${STATE_TEXT[pending.state]}. Queued ${when}${age}. The service had: ${formatValue(type, pending.base)}.`;
}

/** A configuration request's body as shown: formatted JSON (two-space indent). */
export function requestBody(body: unknown): string {
  return JSON.stringify(body, null, 2) ?? String(body);
}
