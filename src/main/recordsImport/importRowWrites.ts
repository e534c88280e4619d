/**
 * One row of a confirmed import written to the outbox, and taken back: what the journal keeps of
 * it (importRunsRepository) is exactly what taking it back needs. A new record's create is
 * discarded whole; an update is undone field by field as a bulk edit's is (bulkUndo's
 * `undoStep`): a field the user or another change has edited since keeps that edit, a value the
 * row folded into the user's own queued edit gives that edit back.
 */
import { undoStep } from '../bulkEdit/bulkUndo';
import type { EditCatalog } from '../outbox/editCatalog';
import type { OutboxLedger } from '../outbox/outboxLedger';
import type { OutboxRepository } from '../outbox/outboxRepository';
import { isOpen, opStatus } from '../outbox/outboxTypes';
import { validateChanges } from '../outbox/validateChanges';
import type { ImportRunRow, JournaledField } from './importRunsRepository';

export interface RowTarget {
  portalId: string;
  moduleId: string;
}

/** A new record queued as a create: the journal's row (inside the caller's transaction). */
export function queueCreate(
  ledger: OutboxLedger,
  { portalId, moduleId }: RowTarget,
  row: number,
  values: Record<string, unknown>,
  catalogs: Map<string, EditCatalog>,
): ImportRunRow {
  const { result } = ledger.create(portalId, moduleId, values, catalogs);
  return {
    row,
    recordId: result.recordId,
    opSeq: result.opId as number,
    created: true,
    fields: {},
  };
}

/**
 * A record's changes queued as the editor queues them (folded into its queued edit, or an update
 * of their own): the journal's row, or null when nothing was left to queue or take back.
 */
export function queueUpdate(
  ledger: OutboxLedger,
  repo: OutboxRepository,
  portalId: string,
  recordId: string,
  row: number,
  changes: Record<string, unknown>,
  catalogs: Map<string, EditCatalog>,
): ImportRunRow | null {
  const source = ledger.editFrom(portalId, recordId, catalogs);
  const valid = validateChanges(source.catalog, changes, source.current);
  const { seq, plan } = ledger.writeEdit(source, valid);
  const folded = plan.action === 'merge' ? source.ops.find((op) => op.seq === plan.seq) : undefined;
  const opSeq = folded?.seq ?? seq;
  if (opSeq === null) return null;
  const after = seq === null ? undefined : repo.op(seq);
  const fields: Record<string, JournaledField> = {};
  for (const { field } of valid) {
    fields[field] = {
      previous: folded?.fields[field] ?? null,
      written: after?.fields[field] ?? null,
      opBefore: folded ? opStatus(folded) : null,
      opAfter: folded && after ? opStatus(after) : null,
    };
  }
  return { row, recordId, opSeq, created: false, fields };
}

/**
 * Takes a journaled row back (inside the caller's transaction). Answers how many of its fields
 * kept a later edit (a record the row created counts none: its create goes whole).
 */
export function takeBackRow(
  ledger: OutboxLedger,
  repo: OutboxRepository,
  { portalId, moduleId }: RowTarget,
  row: ImportRunRow,
): { keptEdits: number } {
  if (row.created) {
    const op = repo.op(row.opSeq);
    // Discarded in the Outbox already: nothing left to take back.
    if (op && op.kind === 'create' && isOpen(op)) ledger.discard(op.seq);
    return { keptEdits: 0 };
  }
  let keptEdits = 0;
  for (const [field, journaled] of Object.entries(row.fields)) {
    const ops = repo.opsOfRecord(portalId, row.recordId);
    const step = undoStep(
      {
        recordId: row.recordId,
        opSeq: row.opSeq,
        coalesced: journaled.previous !== null,
        ...journaled,
      },
      field,
      ops,
    );
    if (step.kind === 'changedSince') keptEdits += 1;
    else if (step.kind === 'restore') {
      ledger.restoreField(row.opSeq, field, journaled.previous, step.status);
    } else if (step.kind === 'requeue') {
      ledger.requeueField(
        { portalId, moduleId, recordId: row.recordId },
        row.opSeq,
        field,
        step.entry,
        step.status,
      );
    }
  }
  return { keptEdits };
}
