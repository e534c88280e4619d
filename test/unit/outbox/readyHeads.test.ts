import { describe, expect, it } from 'vitest';
import { OutboxRepository } from '../../../src/main/outbox/outboxRepository';
import outboxSql from '../../../src/main/outbox/queries/outbox.sql?raw';
import { parseNamedQueries } from '../../../src/main/store/sqlFile';
import { Store } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';

/** An outbox log on a fresh store; `queue` adds an update of a record. */
function outboxLog() {
  const store = Store.open({ dataDir: tempDir(), mode: 'test' });
  const repo = new OutboxRepository(store.db, () => 0);
  const queue = (recordId: string) =>
    repo.insertOp({ portalId: 'p', moduleId: 'm', recordId, kind: 'update' });
  return { store, repo, queue };
}

describe('OutboxRepository.readyHeads: what the replay may start', () => {
  it('gives the first operation of each record, oldest first, and none behind it', () => {
    const { store, repo, queue } = outboxLog();
    const a1 = queue('a');
    const b1 = queue('b');
    queue('a');
    const c1 = queue('c');
    expect(repo.readyHeads(0, 10)).toEqual([
      { seq: a1, portalId: 'p', recordId: 'a' },
      { seq: b1, portalId: 'p', recordId: 'b' },
      { seq: c1, portalId: 'p', recordId: 'c' },
    ]);
    expect(repo.readyHeads(0, 2).map((head) => head.recordId)).toEqual(['a', 'b']);
    store.close();
  });

  it('leaves out operations in flight, refused, in conflict or waiting out a backoff', () => {
    const { store, repo, queue } = outboxLog();
    const sending = queue('a');
    const refused = queue('b');
    const conflict = queue('c');
    const waiting = queue('d');
    const ready = queue('e');
    queue('b'); // behind a refused operation: the record's queue is stopped
    expect(repo.claim(sending)).toBe(true);
    repo.markFailed(refused, 'HTTP 400');
    repo.markConflict(conflict, {}, { kind: 'deleted', foundAt: '', fields: [] });
    repo.markWaiting(waiting, { nextAttemptAt: 5_000, error: 'HTTP 503', keepSent: false });

    expect(repo.readyHeads(1_000, 10, [sending]).map((head) => head.seq)).toEqual([ready]);
    // A claimed operation nobody is sending (after a crash) goes again.
    expect(repo.readyHeads(1_000, 10).map((head) => head.seq)).toEqual([sending, ready]);
    // The backoff ends.
    expect(repo.readyHeads(5_000, 10, [sending]).map((head) => head.seq)).toEqual([waiting, ready]);
    store.close();
  });

  it('tells when the earliest backoff of a head ends', () => {
    const { store, repo, queue } = outboxLog();
    const first = queue('a');
    const second = queue('b');
    const behind = queue('a');
    expect(repo.nextAttemptAt(0)).toBeNull();
    repo.markWaiting(first, { nextAttemptAt: 9_000, error: null, keepSent: false });
    repo.markWaiting(second, { nextAttemptAt: 7_000, error: null, keepSent: false });
    // Not a head: its record waits for `first`.
    repo.markWaiting(behind, { nextAttemptAt: 3_000, error: null, keepSent: false });
    expect(repo.nextAttemptAt(0)).toBe(7_000);
    expect(repo.nextAttemptAt(7_000)).toBe(9_000);
    expect(repo.nextAttemptAt(9_000)).toBeNull();
    store.close();
  });

  it("holds a module's record heads behind a change of its options, which waits for a record in flight", () => {
    const { store, repo, queue } = outboxLog();
    const inFlight = queue('a');
    expect(repo.claim(inFlight)).toBe(true);
    const rename = repo.insertOp({
      portalId: 'p',
      moduleId: 'm',
      recordId: 'layouts:m',
      kind: 'config',
      action: 'option.renameOptions',
    });
    const later = queue('b');
    const elsewhere = repo.insertOp({
      portalId: 'p',
      moduleId: 'n',
      recordId: 'c',
      kind: 'update',
    });
    // The record being sent goes first (its body may have left with the old name), the rename
    // next, the module's other records after it; another module's records are not held.
    expect(repo.readyHeads(0, 10, [inFlight]).map((head) => head.seq)).toEqual([elsewhere]);
    // Claimed and not in flight (a crash): it goes again, not held behind the rename.
    expect(repo.readyHeads(0, 10).map((head) => head.seq)).toEqual([inFlight, elsewhere]);
    repo.deleteOp(inFlight);
    expect(repo.readyHeads(0, 10).map((head) => head.seq)).toEqual([rename, elsewhere]);
    repo.deleteOp(rename);
    expect(repo.readyHeads(0, 10).map((head) => head.seq)).toEqual([later, elsewhere]);
    store.close();
  });

  it('gives heads whose backoff ended first, earliest end first, then the others oldest first', () => {
    const { store, repo, queue } = outboxLog();
    const fresh = queue('a');
    const endsLate = queue('b');
    const endsEarly = queue('c');
    const stillWaiting = queue('d');
    const claimed = queue('e');
    expect(repo.claim(claimed)).toBe(true);
    repo.markWaiting(endsLate, { nextAttemptAt: 3_000, error: 'HTTP 503', keepSent: false });
    repo.markWaiting(endsEarly, { nextAttemptAt: 2_000, error: 'HTTP 503', keepSent: false });
    repo.markWaiting(stillWaiting, { nextAttemptAt: 9_000, error: 'HTTP 503', keepSent: false });
    expect(repo.readyHeads(5_000).map((head) => head.seq)).toEqual([
      endsEarly,
      endsLate,
      fresh,
      claimed,
    ]);
    expect(repo.readyHeads(5_000, 3).map((head) => head.seq)).toEqual([endsEarly, endsLate, fresh]);
    store.close();
  });

  it('reads what it answers from an index: no walk of the whole log, no sort but of its answer', () => {
    // Each look ran once per queued change and walked every queued operation: queuing 4,000
    // changes took 10 s. The plans are what keeps each look's cost to the rows it gives.
    const { store } = outboxLog();
    const queries = parseNamedQueries(outboxSql);
    const plan = (name: string) =>
      (
        store.db
          .prepare(`EXPLAIN QUERY PLAN ${queries[name]}`)
          .all({ now: 0, limit: 32, running: '[]', holding: '[]' }) as {
          parent: number;
          detail: string;
        }[]
      ).map((row) => ({ top: row.parent === 0, detail: row.detail }));

    const heads = plan('readyHeads');
    const reads = heads.filter((row) => /^(SCAN|SEARCH) o\b/.test(row.detail));
    expect(reads.map((row) => row.detail)).toEqual([
      'SEARCH o USING INDEX outbox_ops_due (state=? AND next_attempt_at<?)',
      'SEARCH o USING INDEX outbox_ops_due (state=? AND next_attempt_at=?)',
      'SEARCH o USING INDEX outbox_ops_state (state=?)',
    ]);
    // Record heads held for their module's configuration change look in its queue only, and
    // that change, waiting for records in flight, at the operations being sent only.
    const held = (alias: string) =>
      heads
        .filter((row) => new RegExp(`^(SCAN|SEARCH) ${alias}\\b`).test(row.detail))
        .map((r) => r.detail);
    expect(held('c')).toEqual(
      Array(2).fill('SEARCH c USING INDEX outbox_ops_record (portal_id=? AND record_id=?)'),
    );
    expect(held('r')).toEqual(Array(2).fill('SEARCH r USING INDEX outbox_ops_due (state=?)'));
    expect(heads.filter((row) => row.detail.includes('TEMP B-TREE'))).toEqual([
      { top: true, detail: 'USE TEMP B-TREE FOR ORDER BY' },
    ]);

    const next = plan('nextAttemptAt').map((row) => row.detail);
    expect(next).toContain('SEARCH o USING INDEX outbox_ops_due (state=? AND next_attempt_at>?)');
    expect(next.filter((detail) => detail.includes('TEMP B-TREE'))).toEqual([]);
    store.close();
  });
});
