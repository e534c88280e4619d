/**
 * A module's record changes wait while a change of its fields or options is queued (pure).
 * The record queues and the configuration queue replay independently: an edit naming an option
 * renamed away, or a field deleted, is refused whole by the service if the configuration change
 * got there first, its other fields with it. So configuration goes first: the replay leaves a
 * module's record heads (`readyHeads`, `@holding`) while one of these waits, is sent, failed or
 * in conflict, and the Outbox says so on each record change held (`heldRecordError`).
 */
import type { OutboxOp } from './outboxTypes';

/**
 * The configuration actions a module's record changes wait for: options added, renamed or
 * removed (`option.*` of src/main/configure/optionOps.ts), a field changed or deleted
 * (`field.*` of fieldOps.ts), and statuses added, changed (renamed, made closed or open, their
 * transitions) or removed (`status.*` of statusOps.ts: the spec's statuses are options of the
 * status field, in the same queue): a record change naming a status added here waits for its id,
 * one moving a record along a transition for the transitions it will meet. A move of an option
 * or a status changes no record's value; a field made here is in no record change yet.
 */
export const RECORDS_WAIT_FOR: readonly string[] = [
  'option.addOptions',
  'option.renameOptions',
  'option.removeOptions',
  'field.updateField',
  'field.deleteField',
  'status.addStatuses',
  'status.updateStatuses',
  'status.removeStatuses',
];

export const holdsRecords = (op: Pick<OutboxOp, 'kind' | 'action'>): boolean =>
  op.kind === 'config' && op.action !== null && RECORDS_WAIT_FOR.includes(op.action);

/**
 * What a held record change says in the Outbox: which configuration change holds it (the one
 * `recordsHeldBy` found), and what the user can do when that change cannot go by itself (failed
 * or in conflict). The summary quotes names already (Rename “High” to “Urgent”), so it stands
 * after a colon, unquoted: quoted again, the marks nested and the text misread.
 */
export function heldRecordError(
  module: string,
  config: Pick<OutboxOp, 'state' | 'error'>,
  summary: string,
): string {
  const first = `This change waits until the configuration changes of ${module} queued before it are sent: the service would refuse a record change naming a field or option they change. The first of them: ${sentence(summary)}`;
  if (config.state === 'failed') {
    return `${first} It was refused${config.error ? `: ${sentence(config.error)}` : '.'} Retry it, or discard it in the Outbox, and the queue goes on.`;
  }
  if (config.state === 'conflict') {
    return `${first} It is in conflict with the service: resolve it (keep yours or theirs), or discard it in the Outbox, and the queue goes on.`;
  }
  return `${first} Nothing to do: this change goes once they are delivered.`;
}

/** A text ended as a sentence: its own full stop (or ? or !) kept, else one added. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
