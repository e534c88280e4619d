import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { BudgetStore } from '../../../src/main/api/budgetStore';
import { FakeClock } from '../../support/fakeClock';
import {
  RequestScheduler,
  type Priority,
  type RequestSchedulerOptions,
} from '../../../src/main/api/requestScheduler';
import { tempDir } from '../../support/tempDir';
import { deferred, fakeApi, maxInAnyWindow, openBudgetDb } from './fakeApi';

const quiet = { warn: () => undefined };
/** No reserve: the scheduler may use every call the server allows, to test the window exactly. */
const exact = { fraction: 0, minCalls: 0, slackFraction: 0 };
const open: RequestScheduler[] = [];

afterEach(() => {
  for (const scheduler of open.splice(0)) scheduler.close();
});

function newScheduler(clock: FakeClock, options: Partial<RequestSchedulerOptions> = {}) {
  const scheduler = new RequestScheduler({ clock, log: quiet, ...options });
  open.push(scheduler);
  return scheduler;
}

const times = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Sizes of the groups of `sent` (ascending) separated by more than `gapMs`. */
function bursts(sent: readonly number[], gapMs: number): number[] {
  const sizes: number[] = [];
  sent.forEach((at, i) => {
    if (i === 0 || at - (sent[i - 1] as number) > gapMs) sizes.push(0);
    sizes[sizes.length - 1]!++;
  });
  return sizes;
}

/** A send that records its label and answers 200 after `ms` of fake time (no rate headers). */
function recorder(clock: FakeClock, ms = 10) {
  const order: string[] = [];
  const signals: AbortSignal[] = [];
  const send = (label: string) => async (signal: AbortSignal) => {
    order.push(label);
    signals.push(signal);
    await clock.sleep(ms, signal);
    return new Response(label);
  };
  return { order, signals, send };
}

describe('RequestScheduler: the sliding window', () => {
  it('sends the 201st call to an endpoint only when the first has left the 2-minute window', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const api = fakeApi(clock, { calls: 200, windowMs: 120_000 });
    const scheduler = newScheduler(clock, { safety: exact });
    const all = times(201).map(() =>
      scheduler.schedule({ key: 'k', priority: 'background', send: api.send('k') }),
    );
    const responses = await clock.run(Promise.all(all));

    expect(responses.map((r) => r.status)).toEqual(times(201).map(() => 200));
    expect(api.throttled).toBe(0);
    const sent = api.sendTimes('k');
    expect(Math.max(...sent.slice(0, 200))).toBeLessThan(t0 + 1_000);
    // The first call was answered 10 ms after t0; its window starts there.
    expect(sent[200]).toBe(t0 + 10 + 120_000);
  });

  it('uses all 200 calls of a window when only PortalDesk calls the endpoint, and waits 1 % of a window longer for the next', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const api = fakeApi(clock, { calls: 200, windowMs: 120_000 });
    const scheduler = newScheduler(clock);
    const all = times(201).map(() =>
      scheduler.schedule({ key: 'k', priority: 'background', send: api.send('k') }),
    );
    await clock.advance(60_000);
    expect(api.sendTimes('k')).toHaveLength(200);
    await clock.run(Promise.all(all));
    expect(api.throttled).toBe(0);
    // The first answer came at t0 + 10; its slot frees a window and 1.2 s of slack later.
    expect(api.sendTimes('k')[200]).toBe(t0 + 10 + 120_000 + 1_200);
  });

  it('keeps 1 % in reserve (198 of 200) while another client has been seen on the endpoint, for 10 minutes', async () => {
    const clock = new FakeClock();
    const api = fakeApi(clock, { calls: 200, windowMs: 120_000 });
    api.foreign('k', 3);
    const scheduler = newScheduler(clock);
    const all = times(1_200).map(() =>
      scheduler.schedule({ key: 'k', priority: 'background', send: api.send('k') }),
    );
    await clock.run(Promise.all(all));
    expect(api.throttled).toBe(0);
    // First window: the other client's 3 and a reserve of 2 left out; then 198 a window until
    // 10 minutes after the other client was last seen (t0 + 10), then the whole window again.
    expect(bursts(api.sendTimes('k'), 60_000)).toEqual([195, 198, 198, 198, 198, 200, 13]);
  });

  it('keeps every window full when answers come back out of order', async () => {
    const clock = new FakeClock();
    const api = fakeApi(clock, { calls: 200, windowMs: 120_000 });
    const scheduler = newScheduler(clock);
    // The server counts calls as they arrive; every third answer takes longer than the next ones.
    let n = 0;
    const send = (signal: AbortSignal) => {
      const latency = n++ % 3 === 0 ? 40 : 5;
      const verdict = api.limiter.check('k');
      api.calls.push({
        key: 'k',
        at: clock.now(),
        status: verdict.allowed ? 200 : 429,
        label: 'k',
      });
      return clock
        .sleep(latency, signal)
        .then(
          () =>
            new Response(null, { status: verdict.allowed ? 200 : 429, headers: verdict.headers }),
        );
    };
    const all = times(1_000).map(() => scheduler.schedule({ key: 'k', priority: 'user', send }));
    await clock.run(Promise.all(all));
    expect(api.throttled).toBe(0);
    // 1,000 calls in 5 windows: none of our own calls was taken for another client's.
    expect(bursts(api.sendTimes('k'), 60_000)).toEqual([200, 200, 200, 200, 200]);
  });

  it('never bursts across a fixed-window boundary', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const api = fakeApi(clock, { calls: 10, windowMs: 60_000 });
    const scheduler = newScheduler(clock, {
      limit: { calls: 10, windowMs: 60_000 },
      safety: exact,
    });
    const request = () => scheduler.schedule({ key: 'k', priority: 'user', send: api.send('k') });
    const all = [request()];
    await clock.advance(59_000);
    all.push(...times(9).map(request));
    await clock.advance(1_500);
    // A fixed window would have reopened at 60 s with 10 fresh calls; ours has 1 (the first call's).
    all.push(...times(10).map(request));
    await clock.advance(1_000);
    expect(api.sendTimes('k')).toHaveLength(11);

    await clock.run(Promise.all(all));
    expect(api.throttled).toBe(0);
    expect(maxInAnyWindow(api.sendTimes('k'), 60_000)).toBeLessThanOrEqual(10);
    expect(clock.now() - t0).toBeGreaterThan(119_000);
  });

  it('holds any 60 s to at most 10 calls whenever requests arrive', async () => {
    const clock = new FakeClock();
    const api = fakeApi(clock, { calls: 10, windowMs: 60_000, latencyMs: 250 });
    const scheduler = newScheduler(clock, {
      limit: { calls: 10, windowMs: 60_000 },
      safety: exact,
    });
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const all: Promise<Response>[] = [];
    for (let i = 0; i < 80; i++) {
      await clock.advance(Math.floor(random() * 8_000));
      const key = random() < 0.7 ? 'hot' : 'cold';
      all.push(scheduler.schedule({ key, priority: 'background', send: api.send(key) }));
    }
    await clock.run(Promise.all(all));
    expect(api.throttled).toBe(0);
    expect(maxInAnyWindow(api.sendTimes('hot'), 60_000)).toBeLessThanOrEqual(10);
    expect(maxInAnyWindow(api.sendTimes('cold'), 60_000)).toBeLessThanOrEqual(10);
  });
});

describe('RequestScheduler: resynchronising from the headers', () => {
  it('believes the server when another client has spent part of the budget, and adopts its limit and window', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const api = fakeApi(clock, { calls: 10, windowMs: 60_000 });
    api.foreign('k', 6);
    // It assumes the spec's 200 per 2 minutes until the first answer says 10 per 60 s.
    const scheduler = newScheduler(clock, { safety: exact });
    const all = times(10).map(() =>
      scheduler.schedule({ key: 'k', priority: 'background', send: api.send('k') }),
    );
    await clock.advance(1_000);
    // One call to learn where the server stands, then the 3 it still allows.
    expect(api.sendTimes('k')).toHaveLength(4);
    expect(scheduler.report()[0]).toMatchObject({ limit: 10, windowMs: 60_000, remaining: 0 });

    await clock.run(Promise.all(all));
    expect(api.throttled).toBe(0);
    // The other client's calls count from when we learned of them, in a 60 s window, not 120 s.
    expect(api.sendTimes('k')[4]).toBe(t0 + 10 + 60_000);
  });

  it('notices calls by another client between two windows of its own', async () => {
    const clock = new FakeClock();
    const api = fakeApi(clock, { calls: 10, windowMs: 60_000 });
    const scheduler = newScheduler(clock, {
      limit: { calls: 10, windowMs: 60_000 },
      safety: exact,
    });
    const request = () => scheduler.schedule({ key: 'k', priority: 'user', send: api.send('k') });
    await clock.run(Promise.all(times(10).map(request)));
    // The server's window moves on; our next call sees it has forgotten ours...
    await clock.advance(60_000);
    await clock.run(request());
    // ...and then another app spends 5 calls in the server's new window.
    api.foreign('k', 5);
    await clock.run(Promise.all(times(12).map(request)));
    expect(api.throttled).toBe(0);
  });
});

describe('RequestScheduler: 429 and Retry-After', () => {
  it('pauses only the blocked endpoint for Retry-After, then sends the same request again', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const api = fakeApi(clock, { calls: 10, windowMs: 60_000, blockMs: 600_000 });
    api.foreign('a', 11); // another app tripped the block on endpoint a
    const scheduler = newScheduler(clock, { limit: { calls: 10, windowMs: 60_000 } });
    const a = scheduler.schedule({ key: 'a', priority: 'user', send: api.send('a', 'first a') });
    const b = scheduler.schedule({ key: 'b', priority: 'background', send: api.send('b') });

    await clock.advance(1_000);
    await expect(b).resolves.toMatchObject({ status: 200 });
    const blocked = scheduler.report().find((row) => row.key === 'a');
    expect(blocked).toMatchObject({ blockedUntil: t0 + 10 + 600_000, remaining: 0, queued: 1 });

    const more = times(3).map(() =>
      scheduler.schedule({ key: 'a', priority: 'user', send: api.send('a') }),
    );
    const others = times(5).map(() =>
      scheduler.schedule({ key: 'b', priority: 'background', send: api.send('b') }),
    );
    await clock.advance(598_000);
    await Promise.all(others);
    expect(api.sendTimes('a')).toEqual([t0]);

    const first = await clock.run(a);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ label: 'first a' });
    expect(api.sendTimes('a')[1]).toBe(t0 + 10 + 600_000);
    await clock.run(Promise.all(more));
    expect(api.throttled).toBe(2); // the other app's 11th call and our first
  });

  it('waits the full 10 minutes when a 429 has no Retry-After, and never less than Retry-After', async () => {
    for (const [retryAfter, waitMs] of [
      [null, 600_000],
      ['5', 5_000],
    ] as const) {
      const clock = new FakeClock();
      const t0 = clock.now();
      const sent: number[] = [];
      const scheduler = newScheduler(clock);
      const response = scheduler.schedule({
        key: 'k',
        priority: 'user',
        send: async () => {
          sent.push(clock.now());
          const headers: Record<string, string> = retryAfter ? { 'Retry-After': retryAfter } : {};
          return new Response(null, { status: sent.length === 1 ? 429 : 200, headers });
        },
      });
      await clock.advance(waitMs - 1);
      expect(sent).toEqual([t0]);
      await clock.advance(1);
      await expect(response).resolves.toMatchObject({ status: 200 });
      expect(sent).toEqual([t0, t0 + waitMs]);
    }
  });

  it('hands the 429 to the caller when the endpoint stays blocked after several waits', async () => {
    const clock = new FakeClock();
    let sends = 0;
    const scheduler = newScheduler(clock);
    const response = await clock.run(
      scheduler.schedule({
        key: 'k',
        priority: 'user',
        send: async () => {
          sends++;
          return new Response(null, { status: 429, headers: { 'Retry-After': '1' } });
        },
      }),
    );
    expect(response.status).toBe(429);
    expect(sends).toBe(6);
  });
});

describe('RequestScheduler: persistence', () => {
  it('resumes with the same budget after a restart over the same store', async () => {
    const file = `${tempDir()}/budgets.sqlite`;
    const clock = new FakeClock();
    const t0 = clock.now();
    const api = fakeApi(clock, { calls: 10, windowMs: 60_000 });
    const options = { limit: { calls: 10, windowMs: 60_000 }, safety: exact };

    const db1 = openBudgetDb(file);
    const first = newScheduler(clock, { ...options, store: new BudgetStore(db1) });
    await clock.run(
      Promise.all(
        times(10).map(() => first.schedule({ key: 'k', priority: 'user', send: api.send('k') })),
      ),
    );
    first.close();
    db1.close();

    await clock.advance(30_000);
    const db2 = openBudgetDb(file);
    const second = newScheduler(clock, { ...options, store: new BudgetStore(db2) });
    expect(second.report()).toMatchObject([{ key: 'k', spent: 10, remaining: 0 }]);
    const later = second.schedule({ key: 'k', priority: 'user', send: api.send('k') });
    await clock.advance(29_000);
    expect(api.sendTimes('k')).toHaveLength(10);
    await clock.run(later);
    expect(api.sendTimes('k')[10]).toBe(t0 + 10 + 60_000);
    expect(api.throttled).toBe(0);
    second.close();
    db2.close();
  });

  it('remembers a block across a restart', async () => {
    const file = `${tempDir()}/budgets.sqlite`;
    const clock = new FakeClock();
    const t0 = clock.now();
    const blockedFor = 600_000;
    const send = async () =>
      new Response(null, { status: 429, headers: { 'Retry-After': String(blockedFor / 1000) } });

    const db1 = openBudgetDb(file);
    const first = newScheduler(clock, { store: new BudgetStore(db1) });
    const lost = first.schedule({ key: 'k', priority: 'user', send }).catch((error) => error);
    await clock.advance(1_000);
    first.close();
    expect(await lost).toMatchObject({ name: 'AbortError' });
    db1.close();

    const db2 = openBudgetDb(file);
    const second = newScheduler(clock, { store: new BudgetStore(db2) });
    expect(second.report()[0]?.blockedUntil).toBe(t0 + blockedFor);
    const sent: number[] = [];
    const next = second.schedule({
      key: 'k',
      priority: 'user',
      send: async () => (sent.push(clock.now()), new Response(null)),
    });
    await clock.run(next);
    expect(sent).toEqual([t0 + blockedFor]);
    second.close();
    db2.close();
  });
});

describe('RequestScheduler: priorities, fairness and concurrency', () => {
  it('sends the user’s requests first, then visible ones, then background sync', async () => {
    const clock = new FakeClock();
    const { order, send } = recorder(clock);
    const gate = deferred();
    const scheduler = newScheduler(clock, { concurrency: 1 });
    const held = scheduler.schedule({
      key: 'g',
      priority: 'background',
      send: async () => (await gate.promise, new Response(null)),
    });
    const queued: [string, Priority, string][] = [
      ['x', 'background', 'bg 1'],
      ['y', 'background', 'bg 2'],
      ['z', 'visible', 'visible 1'],
      ['w', 'user', 'user 1'],
      ['x', 'user', 'user 2'],
      ['y', 'visible', 'visible 2'],
    ];
    const all = queued.map(([key, priority, label]) =>
      scheduler.schedule({ key, priority, send: send(label) }),
    );
    gate.resolve();
    await clock.run(Promise.all([held, ...all]));
    expect(order).toEqual(['user 1', 'user 2', 'visible 1', 'visible 2', 'bg 1', 'bg 2']);
  });

  it('lets a user request overtake a long background sync', async () => {
    const clock = new FakeClock();
    const { order, send } = recorder(clock, 10);
    const scheduler = newScheduler(clock, { concurrency: 1 });
    const sync = times(50).map((i) =>
      scheduler.schedule({ key: 'records', priority: 'background', send: send(`page ${i}`) }),
    );
    await clock.advance(25);
    const user = scheduler.schedule({ key: 'record', priority: 'user', send: send('open record') });
    await clock.run(user);
    expect(order.slice(0, 4)).toEqual(['page 0', 'page 1', 'page 2', 'open record']);
    await clock.run(Promise.all(sync));
  });

  it('does not hold back other endpoints behind a user request whose endpoint is blocked', async () => {
    const clock = new FakeClock();
    const scheduler = newScheduler(clock, { concurrency: 1 });
    let blocked = true;
    const user = scheduler.schedule({
      key: 'a',
      priority: 'user',
      send: async () =>
        blocked
          ? ((blocked = false),
            new Response(null, { status: 429, headers: { 'Retry-After': '60' } }))
          : new Response('user'),
    });
    await clock.advance(1);
    const background = scheduler.schedule({
      key: 'b',
      priority: 'background',
      send: async () => new Response('background'),
    });
    await clock.advance(1);
    await expect(background).resolves.toMatchObject({ status: 200 });
    expect(await clock.run(user).then((r) => r.text())).toBe('user');
  });

  it('takes turns between endpoints within a priority', async () => {
    const clock = new FakeClock();
    const { order, send } = recorder(clock);
    const gate = deferred();
    const scheduler = newScheduler(clock, { concurrency: 1 });
    const held = scheduler.schedule({
      key: 'g',
      priority: 'user',
      send: async () => (await gate.promise, new Response(null)),
    });
    const all = [
      ...times(6).map(() =>
        scheduler.schedule({ key: 'A', priority: 'background', send: send('A') }),
      ),
      ...times(3).map(() =>
        scheduler.schedule({ key: 'B', priority: 'background', send: send('B') }),
      ),
      ...times(2).map(() =>
        scheduler.schedule({ key: 'C', priority: 'background', send: send('C') }),
      ),
    ];
    gate.resolve();
    await clock.run(Promise.all([held, ...all]));
    expect(order.join('')).toBe('ABCABCABAAA');
  });

  it('keeps at most 4 requests in flight across all endpoints (or as configured)', async () => {
    for (const [concurrency, expected] of [
      [undefined, 4],
      [2, 2],
    ] as const) {
      const clock = new FakeClock();
      const t0 = clock.now();
      let current = 0;
      let most = 0;
      const scheduler = newScheduler(clock, concurrency ? { concurrency } : {});
      const all = times(10).map((i) =>
        scheduler.schedule({
          key: `k${i}`,
          priority: 'background',
          send: async (signal) => {
            most = Math.max(most, ++current);
            await clock.sleep(100, signal);
            current--;
            return new Response(null);
          },
        }),
      );
      await clock.run(Promise.all(all));
      expect(most).toBe(expected);
      expect(clock.now() - t0).toBe(Math.ceil(10 / expected) * 100);
    }
  });
});

describe('RequestScheduler: cancellation', () => {
  it('drops an aborted queued request at once, without sending it', async () => {
    const clock = new FakeClock();
    const { order, send } = recorder(clock, 1_000);
    const scheduler = newScheduler(clock, { concurrency: 1 });
    const first = scheduler.schedule({ key: 'k', priority: 'user', send: send('first') });
    const controller = new AbortController();
    const second = scheduler.schedule({
      key: 'k',
      priority: 'user',
      send: send('second'),
      signal: controller.signal,
    });
    const third = scheduler.schedule({ key: 'k', priority: 'user', send: send('third') });
    expect(scheduler.report()[0]?.queued).toBe(2);
    controller.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(scheduler.report()[0]?.queued).toBe(1);
    await clock.run(Promise.all([first, third]));
    expect(order).toEqual(['first', 'third']);
  });

  it('aborts an in-flight request through the signal given to send', async () => {
    const clock = new FakeClock();
    const { signals, send } = recorder(clock, 60_000);
    const scheduler = newScheduler(clock);
    const controller = new AbortController();
    const request = scheduler.schedule({
      key: 'k',
      priority: 'user',
      send: send('slow'),
      signal: controller.signal,
    });
    await clock.advance(1_000);
    controller.abort();
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
    expect(signals[0]?.aborted).toBe(true);
    await clock.settle();
    // The call may have reached the server, so it still counts as spent.
    expect(scheduler.report()[0]).toMatchObject({ inFlight: 0, spent: 1 });
  });

  it('drops a request waiting out a 429 when it is aborted, and rejects one aborted before it is scheduled', async () => {
    const clock = new FakeClock();
    let sends = 0;
    const scheduler = newScheduler(clock);
    const controller = new AbortController();
    const request = scheduler.schedule({
      key: 'k',
      priority: 'user',
      signal: controller.signal,
      send: async () => (
        sends++,
        new Response(null, { status: 429, headers: { 'Retry-After': '60' } })
      ),
    });
    await clock.advance(1_000);
    controller.abort();
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
    await clock.advance(120_000);
    expect(sends).toBe(1);

    await expect(
      scheduler.schedule({
        key: 'k',
        priority: 'user',
        send: async () => (sends++, new Response(null)),
        signal: AbortSignal.abort(),
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(sends).toBe(1);
  });

  it('rejects queued requests and aborts in-flight ones on close', async () => {
    const clock = new FakeClock();
    const { signals, send } = recorder(clock, 1_000);
    const scheduler = newScheduler(clock, { concurrency: 1 });
    const inFlight = scheduler.schedule({ key: 'k', priority: 'user', send: send('a') });
    const queued = scheduler.schedule({ key: 'k', priority: 'user', send: send('b') });
    scheduler.close();
    await expect(inFlight).rejects.toMatchObject({ name: 'AbortError' });
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    await expect(
      scheduler.schedule({ key: 'k', priority: 'user', send: send('c') }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('RequestScheduler: reports for the Sync view', () => {
  it('reports calls spent, remaining, when the next slot frees, and what is queued', async () => {
    const clock = new FakeClock();
    const t0 = clock.now();
    const api = fakeApi(clock, { calls: 10, windowMs: 60_000 });
    const scheduler = newScheduler(clock, {
      limit: { calls: 10, windowMs: 60_000 },
      safety: exact,
    });
    const changes: string[] = [];
    const unsubscribe = scheduler.onChange((key) => changes.push(key));
    const request = () => scheduler.schedule({ key: 'k', priority: 'user', send: api.send('k') });

    await clock.run(Promise.all(times(3).map(request)));
    expect(scheduler.report()).toEqual([
      {
        key: 'k',
        limit: 10,
        windowMs: 60_000,
        spent: 3,
        remaining: 7,
        nextSlotAt: clock.now(),
        blockedUntil: null,
        queued: 0,
        inFlight: 0,
        // The three calls left just now: only the window ending now holds them.
        calls: { stepMs: 5_000, inWindow: [...times(23).map(() => 0), 3], current: 3, previous: 0 },
      },
    ]);
    expect(changes.length).toBeGreaterThan(0);
    expect(new Set(changes)).toEqual(new Set(['k']));

    const rest = times(9).map(request);
    await clock.advance(1_000);
    expect(scheduler.report()[0]).toMatchObject({
      spent: 10,
      remaining: 0,
      nextSlotAt: t0 + 10 + 60_000,
      queued: 2,
    });
    unsubscribe();
    const seen = changes.length;
    await clock.run(Promise.all(rest));
    expect(changes.length).toBe(seen);
  });
});

describe('RequestScheduler: throughput', () => {
  it('is not the bottleneck: thousands of requests per second while other endpoints are rate-limited', async () => {
    const clock = new FakeClock();
    const file = `${tempDir()}/budgets.sqlite`;
    const db = openBudgetDb(file);
    const scheduler = newScheduler(clock, {
      store: new BudgetStore(db),
      limit: { calls: 1_000_000, windowMs: 60_000 },
    });
    const headers = { RateLimit: '2', 'RateLimit-Remaining': '0', 'RateLimit-Window': '60' };
    // 200 endpoints with a budget of one call per minute, each with work queued behind it.
    const limited = times(200).flatMap((i) =>
      times(5).map(() =>
        scheduler
          .schedule({
            key: `limited ${i}`,
            priority: i % 2 ? 'user' : 'background',
            send: async () => new Response(null, { headers }),
          })
          .catch(() => undefined),
      ),
    );
    const total = 20_000;
    const started = performance.now();
    const hot = times(total).map(() =>
      scheduler.schedule({
        key: 'hot',
        priority: 'background',
        send: async () => new Response(null),
      }),
    );
    await Promise.all(hot);
    const perSecond = total / ((performance.now() - started) / 1000);
    scheduler.flush();
    expect(perSecond).toBeGreaterThan(5_000);
    scheduler.close();
    await Promise.all(limited);
    db.close();
  });
});

describe('RequestScheduler: the report', () => {
  it('lists every key seen so far, sorted, however keys and reports interleave', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('report'), fc.stringMatching(/^[a-e]{1,2}$/)), {
          maxLength: 30,
        }),
        (steps) => {
          const clock = new FakeClock();
          const { send } = recorder(clock, 1_000);
          const scheduler = newScheduler(clock, { concurrency: 1 });
          const seen = new Set<string>();
          for (const step of steps) {
            if (step === 'report') {
              expect(scheduler.report().map((row) => row.key)).toEqual([...seen].sort());
            } else {
              seen.add(step);
              scheduler
                .schedule({ key: step, priority: 'background', send: send(step) })
                .catch(() => undefined);
            }
          }
          expect(scheduler.report().map((row) => row.key)).toEqual([...seen].sort());
          scheduler.close();
        },
      ),
      { numRuns: 300 },
    );
  });
});
