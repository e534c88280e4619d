/**
 * Issue 19: a request bin shows each request's headers. They are stored with the entry, bounded
 * (MAX_BIN_HEADERS headers, MAX_BIN_HEADER_BYTES bytes): a header past the bound is left out and
 * counted, while the attempt's own record keeps the whole request.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BIN_HEADER_BYTES } from '../../../src/shared/ipc/areas/router';
import { customSetup, testRouter } from './routerSupport';

describe('a request bin entry', () => {
  it('keeps the request headers, method and address, newest first', async () => {
    const { engine, advance } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const bin = engine.saveTarget({
      name: 'bin',
      kind: 'request_bin',
      method: 'PUT',
      headers: [{ name: 'X-Order', value: '{{order}}' }],
    });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [bin.id] });
    engine.publish(publisher.id, 'order_created', { order: 'A-1' });
    await advance(1_000);
    engine.publish(publisher.id, 'order_created', { order: 'A-2' });
    // The target's rate paces the second call by virtual time.
    await advance(1_000);
    const entries = engine.requestBin(bin.id);
    expect(entries.map((entry) => entry.headers['x-order'])).toEqual(['A-2', 'A-1']);
    expect(entries[0]).toMatchObject({
      method: 'PUT',
      url: `sandbox://request_bin/${bin.id}`,
      headers: { 'content-type': 'application/json', 'user-agent': expect.any(String) },
      headersOmitted: 0,
    });
    expect(entries[0]!.receivedAt).toBeGreaterThan(entries[1]!.receivedAt);
  });

  it('leaves out a header past the size bound, says how many, and the attempt keeps it', async () => {
    const { engine } = await testRouter();
    const { publisher, event } = await customSetup(engine);
    const bin = engine.saveTarget({
      name: 'bin',
      kind: 'request_bin',
      headers: [
        { name: 'X-Note', value: '{{note}}' },
        { name: 'X-Order', value: '{{order}}' },
      ],
    });
    engine.saveRule({ name: 'all', eventConfigIds: [event.id], targetIds: [bin.id] });
    const note = 'n'.repeat(MAX_BIN_HEADER_BYTES);
    const id = engine.publish(publisher.id, 'order_created', { order: 'A-3', note });
    await engine.settle();
    const [entry] = engine.requestBin(bin.id);
    expect(entry!.headersOmitted).toBe(1);
    expect(entry!.headers).not.toHaveProperty('x-note');
    // A smaller header after the one left out is still kept.
    expect(entry!.headers['x-order']).toBe('A-3');
    const attempt = engine.getEvent(id).executions[0]!.attempts[0]!;
    expect(attempt.request.headers['x-note']).toBe(note);
  });

  it('reads entries stored before the bound (the headers object itself)', async () => {
    const { engine, db } = await testRouter();
    const bin = engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    db.prepare(
      `INSERT INTO router_bin_entries (target_id, received_at, method, url, headers, body)
       VALUES (?, 1, 'POST', 'sandbox://request_bin/1', ?, '{}')`,
    ).run(bin.id, JSON.stringify({ 'content-type': 'application/json', headers: 'a value' }));
    expect(engine.requestBin(bin.id)).toMatchObject([
      { headers: { 'content-type': 'application/json', headers: 'a value' }, headersOmitted: 0 },
    ]);
  });
});
