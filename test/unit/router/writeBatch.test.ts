import { describe, expect, it } from 'vitest';
import type { EventRow, ExecutionRow } from '../../../src/main/router/store/routerRows';
import { WriteBatch } from '../../../src/main/router/store/writeBatch';

const event = (id: string): EventRow => ({
  id,
  publisher_id: '1',
  event_config_id: '2',
  api_name: 'order_created',
  time_ms: 1_000,
  data: '{}',
  version: 1,
  stage: 'received',
  publisher_status: 'active',
  overall_status: 'Received',
  schema_errors: '[]',
  redelivery_of: null,
});

const execution = (id: string, eventId: string): ExecutionRow => ({
  id,
  event_id: eventId,
  rule_id: '10',
  target_id: '20',
  rule_status: 'active',
  target_status: 'active',
  status: 'In Queue',
  retry_count: 3,
  next_attempt_at: null,
  note: null,
});

describe('the group commit batch', () => {
  it('writes an event routed before its commit once, already routed', () => {
    const batch = new WriteBatch();
    batch.insertEvent(event('e1'));
    batch.setOverallStatus('e1', 'In Progress', true);
    const writes = batch.drain();
    expect(writes.eventInserts).toEqual([
      { ...event('e1'), stage: 'routed', overall_status: 'In Progress' },
    ]);
    expect(writes.eventUpdates).toEqual([]);
  });

  it('an event stored in an earlier commit gets one update with its latest status', () => {
    const batch = new WriteBatch();
    batch.setOverallStatus('e1', 'In Progress', true);
    batch.setOverallStatus('e1', 'Success');
    expect(batch.drain().eventUpdates).toEqual([
      { id: 'e1', overall_status: 'Success', routed: true },
    ]);
  });

  it('an execution started before its commit is inserted In Progress, with its attempt', () => {
    const batch = new WriteBatch();
    batch.insertEvent(event('e1'));
    batch.insertExecution(execution('x1', 'e1'));
    batch.updateExecution('x1', { status: 'In Progress', next_attempt_at: null, note: null });
    batch.startAttempt({ execution_id: 'x1', attempt: 1, started_at: 5, request: '{}' });
    const writes = batch.drain();
    expect(writes.executionInserts).toEqual([{ ...execution('x1', 'e1'), status: 'In Progress' }]);
    expect(writes.executionUpdates).toEqual([]);
    expect(writes.attemptInserts).toEqual([
      {
        execution_id: 'x1',
        attempt: 1,
        started_at: 5,
        finished_at: null,
        request: '{}',
        response: null,
        error: null,
        outcome: 'pending',
      },
    ]);
  });

  it("an attempt's end is an update when its start was committed, part of the insert otherwise", () => {
    const batch = new WriteBatch();
    const finish = {
      execution_id: 'x1',
      attempt: 1,
      finished_at: 9,
      response: '{"status":200}',
      error: null,
      outcome: 'success' as const,
    };
    batch.finishAttempt(finish);
    expect(batch.drain().attemptFinishes).toEqual([finish]);

    batch.startAttempt({ execution_id: 'x1', attempt: 2, started_at: 5, request: '{}' });
    batch.finishAttempt({ ...finish, attempt: 2 });
    const writes = batch.drain();
    expect(writes.attemptFinishes).toEqual([]);
    expect(writes.attemptInserts).toEqual([
      { ...finish, attempt: 2, started_at: 5, request: '{}' },
    ]);
  });

  it('an attempt taken back is never written if uncommitted, deleted if committed', () => {
    const batch = new WriteBatch();
    const restore = { status: 'In Queue' as const, next_attempt_at: null, note: null };
    batch.updateExecution('x1', { status: 'In Progress', next_attempt_at: null, note: null });
    batch.startAttempt({ execution_id: 'x1', attempt: 1, started_at: 5, request: '{}' });
    batch.cancelAttemptStart('x1', 1, restore);
    let writes = batch.drain();
    expect(writes.attemptInserts).toEqual([]);
    expect(writes.attemptDeletes).toEqual([]);
    expect(writes.executionUpdates).toEqual([{ id: 'x1', ...restore }]);

    batch.cancelAttemptStart('x2', 3, restore);
    writes = batch.drain();
    expect(writes.attemptDeletes).toEqual([{ execution_id: 'x2', attempt: 3 }]);
    expect(writes.executionUpdates).toEqual([{ id: 'x2', ...restore }]);
  });

  it('is empty after drain', () => {
    const batch = new WriteBatch();
    expect(batch.isEmpty).toBe(true);
    batch.insertBinEntry({
      target_id: '1',
      received_at: 1,
      method: 'POST',
      url: 'sandbox://request_bin/1',
      headers: '{}',
      body: null,
    });
    expect(batch.isEmpty).toBe(false);
    expect(batch.drain().binEntries).toHaveLength(1);
    expect(batch.isEmpty).toBe(true);
  });
});
