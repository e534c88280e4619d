/**
 * The engine's answer time while it works (bench/scale.bench.ts): a query is due every
 * `intervalMs`, whatever happened to the ones before (an open loop, as a renderer scrolling sends
 * windows without waiting for the engine), and each is timed from when it was due to when its
 * answer is ready. Time spent waiting for the event loop (behind a transaction that stores a page,
 * say) therefore counts, as it does for a `records.query` call that arrives meanwhile. Queries run
 * on the caller's thread, one after another; when the loop was held up past several due times,
 * each of those queries runs when it is free again, each timed from its own due time.
 */
import { performance } from 'node:perf_hooks';
import { cpuMicrosSince } from './syncFigures';

export interface QueryProbeOptions {
  intervalMs: number;
  /** Runs query number `slot`; false when there is nothing to ask yet (not counted). */
  ask(slot: number): boolean;
}

export interface QueryProbeFigures {
  /** Milliseconds from due to answered, in the order they were due. */
  samples: number[];
  /** Milliseconds each answered query itself took (from its start), in the same order. */
  own: number[];
  /** Due times with nothing to ask yet. */
  skipped: number;
  /** This process's CPU time spent in the queries themselves (µs). */
  cpuUs: number;
}

export interface QueryProbe {
  stop(): QueryProbeFigures;
}

export function startQueryProbe({ intervalMs, ask }: QueryProbeOptions): QueryProbe {
  const first = performance.now() + intervalMs;
  const due = (slot: number) => first + slot * intervalMs;
  const figures: QueryProbeFigures = { samples: [], own: [], skipped: 0, cpuUs: 0 };
  let slot = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    // Only what was due when the loop got here: queries slower than the interval must not keep
    // this callback from ever returning.
    const now = performance.now();
    while (!stopped && due(slot) <= now) {
      const cpu = process.cpuUsage();
      const startedAt = performance.now();
      const asked = ask(slot);
      const answeredAt = performance.now();
      figures.cpuUs += cpuMicrosSince(cpu);
      if (asked) {
        figures.samples.push(answeredAt - due(slot));
        figures.own.push(answeredAt - startedAt);
      } else figures.skipped += 1;
      slot += 1;
    }
    if (!stopped) timer = setTimeout(tick, Math.max(0, due(slot) - performance.now()));
  };
  timer = setTimeout(tick, intervalMs);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      return figures;
    },
  };
}

/** The value below which `share` (0–1) of the samples lie (nearest rank); null without any. */
export function percentile(samples: readonly number[], share: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
