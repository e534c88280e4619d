import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replyTurn } from '../../../../src/main/api/client/replyTurns';

/**
 * Counts the event loop's iterations: a setImmediate that schedules itself runs once an
 * iteration (one scheduled from a check phase's callback runs in the next iteration).
 */
function loopCounter() {
  let iterations = 0;
  let running = true;
  const tick = () => {
    iterations++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => iterations,
    stop: () => {
      running = false;
    },
  };
}

describe('replyTurn', () => {
  it('releases the replies that wait one per turn of the event loop, in the order they asked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 12 }),
        async (gaps) => {
          const loop = loopCounter();
          const released: { who: number; iteration: number }[] = [];
          const asked: Promise<void>[] = [];
          // Replies ask in bursts (as sockets become readable together), some a turn or more apart.
          for (const [who, gap] of gaps.entries()) {
            for (let i = 0; i < gap; i++) await new Promise((resolve) => setImmediate(resolve));
            asked.push(replyTurn().then(() => void released.push({ who, iteration: loop.now() })));
          }
          await Promise.all(asked);
          loop.stop();
          expect(released.map((r) => r.who)).toEqual(gaps.map((_, who) => who));
          const iterations = released.map((r) => r.iteration);
          expect(new Set(iterations).size).toBe(iterations.length);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('lets a timer due meanwhile run between two replies', async () => {
    const order: string[] = [];
    const first = replyTurn().then(() => {
      order.push('reply 1');
      // Work of the first reply's turn, long enough for a 0 ms timer to be due after it.
      const until = performance.now() + 5;
      while (performance.now() < until);
      setTimeout(() => order.push('timer'), 0);
      const until2 = performance.now() + 5;
      while (performance.now() < until2);
    });
    const second = replyTurn().then(() => void order.push('reply 2'));
    const third = replyTurn().then(() => void order.push('reply 3'));
    await Promise.all([first, second, third]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(['reply 1', 'timer', 'reply 2', 'reply 3']);
  });
});
