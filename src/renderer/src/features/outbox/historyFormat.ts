/**
 * How the "Sent" view words and shows a delivery (pure): the kind filter's groups, a body as
 * formatted JSON when it is JSON (else as it came), and what was cut off a bounded body.
 */
import type { OpKind } from '../../../../shared/ipc/areas/outbox';

/** The kind filter: what a user looks for, each the operation kinds it covers. */
export const KIND_GROUPS: readonly { id: string; label: string; kinds: OpKind[] | null }[] = [
  { id: 'all', label: 'Every kind', kinds: null },
  { id: 'update', label: 'Edits', kinds: ['update'] },
  { id: 'create', label: 'New records', kinds: ['create'] },
  { id: 'trash', label: 'Trash and restore', kinds: ['trash', 'restore'] },
  { id: 'delete', label: 'Deleted for good', kinds: ['delete'] },
  { id: 'comment', label: 'Comments', kinds: ['comment_add', 'comment_edit', 'comment_delete'] },
  { id: 'config', label: 'Configuration', kinds: ['config'] },
];

/** A body indented when it parses as JSON; a cut-off body (not JSON any more) as it is. */
export function formatBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** "Showing the first 4,000 of 12,345 characters." when the stored body is a part. */
export function cutOffNote(shown: string | null, length: number): string | null {
  if (shown === null || shown.length >= length) return null;
  return `Showing the first ${shown.length.toLocaleString('en-US')} of ${length.toLocaleString('en-US')} characters.`;
}

/** "1–100 of 1,234" */
export function pageRange(offset: number, shown: number, total: number): string {
  if (total === 0) return 'None';
  const n = (v: number) => v.toLocaleString('en-US');
  return `${n(offset + 1)}–${n(offset + shown)} of ${n(total)}`;
}
