/**
 * A configuration change waits behind the changes queued before it in its queue (a module's, or
 * its layouts and fields': only a queue's head goes). When one of those cannot go by itself (the
 * service refused it, or it is in conflict), the changes after it wait for the user; this says so
 * on each of them, in words, instead of "waiting to be sent" with no end (pure).
 */
import type { OutboxOp } from './outboxTypes';

/** Actions that make something new here, named by a temporary id until the service answers. */
const CREATING = new Set([
  'module.create',
  'layout.createLayout',
  'layout.putSection',
  'field.createField',
  'option.addOptions',
  'status.addStatuses',
]);

const TEMP_ID = /^tmp-[a-z]+-[0-9a-f]{16}$/;

function tempIdsIn(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') {
    if (TEMP_ID.test(value)) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) tempIdsIn(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) tempIdsIn(item, into);
  }
  return into;
}

/** The first change before `op` in its queue that cannot go by itself, if `op` waits. */
export function heldBehind(queue: readonly OutboxOp[], op: OutboxOp): OutboxOp | undefined {
  if (op.kind !== 'config' || op.state !== 'pending') return undefined;
  return queue.find(
    (earlier) =>
      earlier.seq < op.seq &&
      earlier.portalId === op.portalId &&
      earlier.recordId === op.recordId &&
      (earlier.state === 'failed' || earlier.state === 'conflict'),
  );
}

/** Whether `op` names something `blocker` was to create (a field, layout, option... made here). */
export function namesWhatItCreates(blocker: OutboxOp, op: OutboxOp): boolean {
  if (!CREATING.has(blocker.action ?? '')) return false;
  const made = tempIdsIn(blocker.fields, new Set());
  return [...tempIdsIn(op.fields, new Set())].some((id) => made.has(id));
}

const sentence = (text: string) => {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

/**
 * What a held change says: which change holds it, why that one cannot go, what to do. The
 * summary quotes names already, so it stands after a colon, unquoted.
 */
export function heldConfigError(
  blocker: Pick<OutboxOp, 'state' | 'error'>,
  summary: string,
  dependsOnIt: boolean,
): string {
  const first = `Not sent yet: this change waits behind one queued before it for the same configuration: ${sentence(summary)}`;
  const cause =
    blocker.state === 'conflict'
      ? ' That one is in conflict with the service: resolve it (keep yours or theirs), or discard it, and this change goes after it.'
      : ` That one was refused${blocker.error ? `: ${sentence(blocker.error)}` : '.'} Put its cause right and retry it, or discard it, and this change goes after it.`;
  const depends = dependsOnIt
    ? ' This change names what that one creates: discarding that one, discard this one too.'
    : '';
  return `${first}${cause}${depends}`;
}

/**
 * The operations (whole queues, in seq order) with each held pending change's error saying what
 * holds it; one with an error of its own (a try that did not get through) keeps it.
 */
export function withQueueHolds(
  ops: readonly OutboxOp[],
  summaryOf: (op: OutboxOp) => string,
): OutboxOp[] {
  return ops.map((op) => {
    if (op.error !== null) return op;
    const blocker = heldBehind(ops, op);
    if (!blocker) return op;
    return {
      ...op,
      error: heldConfigError(blocker, summaryOf(blocker), namesWhatItCreates(blocker, op)),
    };
  });
}
