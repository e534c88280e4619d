/**
 * What queuing changes costs the outbox, counted, not timed: the replay's looks for work
 * (`readyHeads`) and the counts the Outbox is told (`counts`, a read of the whole log). A records
 * import queues a slice of rows per turn of the event loop with a microtask between rows; a look
 * and a count per queued row made an import of 4,000 rows take 11 s and of 16,000 more than 20
 * minutes (bench/outboxQueue).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxChanged } from '../../../src/shared/ipc/areas/outbox';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { Connectivity, memoryWorkOfflineStore } from '../../../src/main/connectivity/connectivity';
import { DEFAULT_PARALLEL_RECORDS } from '../../../src/main/outbox/outboxReplayer';
import { OutboxService } from '../../../src/main/outbox/outboxService';
import { Mirror } from '../../../src/main/store/mirror/mirror';
import { Store } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';

const opened: { close(): void }[] = [];
afterEach(() => {
  for (const thing of opened.splice(0).reverse()) thing.close();
});

/** An outbox whose portal's account is signed out: every head it looks at waits (no client). */
function signedOutOutbox() {
  const store = Store.open({ dataDir: tempDir(), mode: 'test' });
  opened.push(store);
  const events = new EventHub();
  const told: OutboxChanged[] = [];
  events.subscribe((event, payload) => {
    if (event === 'outbox.changed') told.push(payload as OutboxChanged);
  });
  const outbox = new OutboxService({
    db: store.db,
    mirror: new Mirror(store.db),
    connection: { clientForPortal: () => undefined },
    connectivity: new Connectivity(memoryWorkOfflineStore()),
    events,
  });
  opened.push(outbox, events);
  return { outbox, told };
}

/** `rows` changes queued as an import queues a slice: a microtask between two. */
async function queueSlice(outbox: OutboxService, rows: number) {
  for (let i = 0; i < rows; i++) {
    outbox.repo.insertOp({ portalId: 'p', moduleId: 'm', recordId: `r${i}`, kind: 'update' });
    outbox.queuedElsewhere({ portalId: 'p', moduleId: 'm' });
    await Promise.resolve();
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('queuing a slice of changes', () => {
  it('costs the replay one look for work, not one per change', async () => {
    const { outbox } = signedOutOutbox();
    await nextTurn(); // the look at start, on an empty log
    const looks = vi.spyOn(outbox.repo, 'readyHeads');
    const rows = 200;
    await queueSlice(outbox, rows);
    expect(looks).not.toHaveBeenCalled();
    await nextTurn();
    expect(looks).toHaveBeenCalledTimes(1);

    // Each look starts as many heads as records may go at once; those finishing in one turn
    // share the next look, so every head is seen (and, signed out, waits) in rows ÷ 32 looks.
    // One more look finds nothing left to start.
    for (let turn = 0; turn < 20; turn++) await nextTurn();
    const taken = looks.mock.calls.length;
    looks.mockRestore();
    expect(outbox.repo.readyHeads(Date.now())).toEqual([]);
    expect(outbox.repo.counts().pending).toBe(rows);
    expect(taken).toBeLessThanOrEqual(Math.ceil(rows / DEFAULT_PARALLEL_RECORDS) + 1);
  });

  it('tells the Outbox the first change at once and the rest when the turn ends, counted twice', async () => {
    const { outbox, told } = signedOutOutbox();
    await nextTurn();
    told.length = 0;
    const counted = vi.spyOn(outbox.repo, 'counts');
    await queueSlice(outbox, 200);
    expect(told.map((changed) => changed.total)).toEqual([1]);
    await nextTurn();
    expect(told.at(-1)?.total).toBe(200);
    expect(counted.mock.calls.length).toBeLessThanOrEqual(2);
  });
});
