import { describe, expect, it } from 'vitest';
import { customSetup, failEventInserts, post, testRouter } from './routerSupport';

describe('group commit', () => {
  it('the ingress answers 202 only once the event is stored; a failed commit answers 500', async () => {
    const { engine, url, file, advance } = await testRouter();
    const { publisher, apiKey } = await customSetup(engine);
    const target = engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    const event = engine.overview().publishers.find((p) => p.id === publisher.id)!.events[0]!;
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [target.id] });
    const ingress = `${url}/publishers/${publisher.id}/events/order_created`;

    const undo = failEventInserts(file);
    const refused = await post(ingress, { order: 'A-1' }, { 'x-api-key': apiKey });
    undo();
    expect(refused.status).toBe(500);
    expect(refused.body!.error).toBe(
      'The router could not store this event (disk I/O error (simulated)). Nothing was recorded; send it again, and check the disk if it keeps failing.',
    );
    await engine.settle();
    expect(engine.listEvents({}).total).toBe(0);
    // Nothing stored, nothing sent.
    expect(engine.requestBin(target.id)).toEqual([]);

    const accepted = await post(ingress, { order: 'A-2' }, { 'x-api-key': apiKey });
    expect(accepted.status).toBe(202);
    // The bin's rate limit gave the first event's delivery the first slot; the next one is later.
    await advance(1_000);
    expect(engine.getEvent(accepted.body!.id as string).status).toBe('Success');
    expect(engine.requestBin(target.id)).toHaveLength(1);
  });

  it('an event routed in the commit that stores it is written once: no UPDATE of a row just inserted', async () => {
    const { engine, db } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const bins = [1, 2, 3].map((n) => engine.saveTarget({ name: `bin ${n}`, kind: 'request_bin' }));
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: bins.map((b) => b.id) });
    const changes = db.prepare('SELECT total_changes()').pluck();
    const start = changes.get() as number;
    const ids = [1, 2].map((n) => engine.publish(publisher.id, 'order_created', { n }));
    await engine.stored();
    // Two events, six executions, and the three attempts started at once (each bin's rate limit
    // gives the second event's deliveries a later slot): eleven INSERTs and nothing else.
    expect((changes.get() as number) - start).toBe(11);
    const rows = db
      .prepare('SELECT stage, overall_status FROM router_events WHERE id IN (?, ?)')
      .all(...ids);
    expect(rows).toEqual([
      { stage: 'routed', overall_status: 'In Progress' },
      { stage: 'routed', overall_status: 'In Progress' },
    ]);
    const started = db
      .prepare("SELECT count(*) FROM router_executions WHERE status = 'In Progress'")
      .pluck()
      .get();
    expect(started).toBe(3);
  });

  it('an attempt stored as started but not sent when the router closes is sent by the next run as attempt 1', async () => {
    const first = await testRouter();
    const { publisher, event } = await customSetup(first.engine);
    const bin = first.engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    first.engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [bin.id] });
    const id = first.engine.publish(publisher.id, 'order_created', { order: 'A-11' });
    // Reading commits: the event is routed and its attempt stored as started. The request would
    // go out right after that commit, but the router closes first.
    expect(first.engine.getEvent(id).executions[0]!.status).toBe('In Progress');
    first.engine.close();
    await first.close();

    const second = await testRouter({ file: first.file });
    await second.engine.settle();
    const detail = second.engine.getEvent(id);
    expect(detail.executions[0]!.attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'success'],
    ]);
    expect(detail.status).toBe('Success');
    expect(second.engine.requestBin(bin.id)).toHaveLength(1);
  });
});
