import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openRouterDatabase } from '../../../src/main/router/store/openRouterDatabase';
import {
  RouterEngine,
  type RouterEngineOptions,
} from '../../../src/main/router/engine/routerEngine';
import { RouterIngress } from '../../../src/main/router/routerIngress';
import { VirtualClock } from '../../../src/main/router/engine/virtualClock';
import { tempDir } from '../../support/tempDir';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A router on its own SQLite file with a manual clock (moves only by advance) and its ingress. */
export async function testRouter(
  options: { file?: string; startMs?: number; log?: RouterEngineOptions['log'] } = {},
) {
  const file = options.file ?? path.join(tempDir('portaldesk-router-'), 'router.sqlite');
  const db = openRouterDatabase(file);
  const clock = new VirtualClock({
    manual: true,
    startMs: options.startMs ?? Date.parse('2024-05-15T12:00:00Z'),
  });
  const engine = new RouterEngine({ db, clock, ...(options.log ? { log: options.log } : {}) });
  const ingress = new RouterIngress(engine);
  const url = await ingress.start();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await ingress.close();
    engine.close();
    db.close();
  };
  cleanups.push(close);
  /** Moves virtual time and lets every delivery that falls due finish. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await engine.settle();
  };
  return { engine, ingress, url, clock, file, db, advance, close };
}

/** A custom publisher with one event and a request bin, wired by a deliver-all rule. */
export async function customSetup(router: Awaited<ReturnType<typeof testRouter>>['engine']) {
  const { publisher, apiKey } = router.createPublisher({ name: 'Shop' });
  const event = router.createEvent({
    publisherId: publisher.id,
    apiName: 'order_created',
    sample: { order: 'A-1', amount: 10, customer: { email: 'a@example.com' } },
  });
  return { publisher, apiKey, event };
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

/** Makes every event insert fail on `file`, as a full disk would, until the returned undo. */
export function failEventInserts(file: string): () => void {
  const other = new Database(file);
  other.exec(`CREATE TRIGGER fail_event_insert BEFORE INSERT ON router_events
    BEGIN SELECT RAISE(ABORT, 'disk I/O error (simulated)'); END;`);
  return () => {
    other.exec('DROP TRIGGER fail_event_insert');
    other.close();
  };
}
