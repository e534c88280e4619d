/**
 * Another connection may hold the database's write lock for seconds (the custom-field index
 * worker building an index; the router's writer). The engine's write transactions begin
 * IMMEDIATE, so they wait for it (busy_timeout) instead of failing: a deferred transaction that
 * reads first is refused at once with "database is locked" when it then tries to write.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { makeRecord, mirroredPortal } from './mirror/fixture';

const HOLD_MS = 600;

/**
 * A child process holding the write lock of `file` for HOLD_MS; resolves once it holds it, with
 * the promise of its release (wrapped: an async function would otherwise wait for it).
 */
async function holdWriteLock(file: string): Promise<{ released: Promise<unknown> }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const Database = require('better-sqlite3');
       const db = new Database(process.argv[1]);
       db.exec('BEGIN IMMEDIATE');
       process.stdout.write('held\\n');
       setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${HOLD_MS});`,
      file,
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const released = once(child, 'exit');
  await once(child.stdout!, 'data');
  return { released };
}

describe('write transactions while another connection holds the write lock', () => {
  it('wait for it and then store, instead of failing with "database is locked"', async () => {
    const { store, mirror } = mirroredPortal({ forFile: true });
    // Read first (the reconciliation's ids, a page's row keys), then write: the hard case.
    mirror.records.upsertRecords([makeRecord(1)]);
    const { released } = await holdWriteLock(store.file);
    const started = performance.now();
    const changes = mirror.records.upsertRecords([makeRecord(2), makeRecord(3)]);
    const waited = performance.now() - started;
    await released;
    expect(changes.records?.inserted).toHaveLength(2);
    expect(waited).toBeGreaterThan(HOLD_MS / 4);
    expect(store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(3);
  });
});

describe('a transaction that reads, then writes, while another connection commits', () => {
  // The mirror's writer thread commits pages on its own connection at any moment. A deferred
  // transaction of the engine's that read before such a commit is refused at its first write
  // (SQLITE_BUSY: its snapshot is stale, and no busy timeout retries that); the engine's
  // transactions begin IMMEDIATE (immediateTransactions), so the other connection waits instead.
  it('is stored, the other connection waiting for its lock', () => {
    const { store } = mirroredPortal();
    store.db.exec('CREATE TABLE probe (n INTEGER)');
    const other = new Database(store.file);
    other.pragma('busy_timeout = 0');
    let otherRefused = false;
    try {
      const readThenWrite = store.db.transaction(() => {
        store.db.prepare('SELECT count(*) FROM probe').get();
        try {
          other.prepare('INSERT INTO probe (n) VALUES (2)').run();
        } catch (error) {
          otherRefused = (error as { code?: string }).code === 'SQLITE_BUSY';
        }
        store.db.prepare('INSERT INTO probe (n) VALUES (1)').run();
      });
      expect(() => readThenWrite()).not.toThrow();
      expect(otherRefused).toBe(true);
      expect(store.db.prepare('SELECT n FROM probe').pluck().all()).toEqual([1]);
    } finally {
      other.close();
    }
  });
});
