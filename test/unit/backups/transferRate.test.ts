/**
 * Download speed over the last few seconds, and the time left: nothing until samples span
 * 200 ms, and a stall shows at once because old samples slide out of the window.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RATE_WINDOW_MS,
  TransferRate,
  type RateSample,
} from '../../../src/main/backups/transferRate';

function rateOf(samples: readonly RateSample[]): TransferRate {
  const rate = new TransferRate();
  for (const sample of samples) rate.add(sample);
  return rate;
}

/** Every `stepMs` from `fromMs` to `toMs`, at `bytesPerMs`, starting from `startBytes`. */
function steady(fromMs: number, toMs: number, stepMs: number, bytesPerMs: number, startBytes = 0) {
  const samples: RateSample[] = [];
  for (let t = fromMs; t <= toMs; t += stepMs) {
    samples.push({ atMs: t, bytes: startBytes + (t - fromMs) * bytesPerMs });
  }
  return samples;
}

describe('TransferRate', () => {
  it('measures over three seconds', () => {
    expect(RATE_WINDOW_MS).toBe(3_000);
  });

  it('knows nothing without samples, or with one', () => {
    const rate = new TransferRate();
    expect(rate.bytesPerSecond()).toBeNull();
    expect(rate.etaSeconds(1000)).toBeNull();
    rate.add({ atMs: 0, bytes: 0 });
    expect(rate.bytesPerSecond()).toBeNull();
    expect(rate.etaSeconds(1000)).toBeNull();
  });

  it('knows nothing until the samples span 200 ms', () => {
    const rate = rateOf([
      { atMs: 1000, bytes: 0 },
      { atMs: 1100, bytes: 1000 },
      { atMs: 1199, bytes: 2000 },
    ]);
    expect(rate.bytesPerSecond()).toBeNull();
    expect(rate.etaSeconds(10_000)).toBeNull();
    rate.add({ atMs: 1200, bytes: 2000 });
    expect(rate.bytesPerSecond()).toBe(10_000);
  });

  it('is bytes per second between the first and the last sample in the window', () => {
    expect(
      rateOf([
        { atMs: 0, bytes: 0 },
        { atMs: 1000, bytes: 5000 },
      ]).bytesPerSecond(),
    ).toBe(5000);
    expect(
      rateOf([
        { atMs: 10_000, bytes: 1_000 },
        { atMs: 10_500, bytes: 2_000 },
      ]).bytesPerSecond(),
    ).toBe(2000);
  });

  it('gives the time left for the total', () => {
    const rate = rateOf([
      { atMs: 0, bytes: 0 },
      { atMs: 1000, bytes: 5000 },
    ]);
    expect(rate.etaSeconds(15_000)).toBe(2);
    expect(rate.etaSeconds(5000)).toBe(0);
    // More than the total already: never a negative time.
    expect(rate.etaSeconds(4000)).toBe(0);
  });

  it('gives no time left when the total is unknown, or nothing is moving', () => {
    const moving = rateOf([
      { atMs: 0, bytes: 0 },
      { atMs: 1000, bytes: 5000 },
    ]);
    expect(moving.etaSeconds(null)).toBeNull();
    const still = rateOf([
      { atMs: 0, bytes: 5000 },
      { atMs: 1000, bytes: 5000 },
    ]);
    expect(still.bytesPerSecond()).toBe(0);
    expect(still.etaSeconds(10_000)).toBeNull();
  });

  it('forgets an early burst: only the last three seconds count', () => {
    // 100 bytes/ms for a second, then 10 bytes/ms for four seconds.
    const burst = steady(0, 1000, 100, 100);
    const after = steady(1100, 5000, 100, 10, 100_000 + 1000);
    const rate = rateOf([...burst, ...after]);
    expect(rate.bytesPerSecond()).toBe(10_000);
    const last = after[after.length - 1]!;
    expect(rate.etaSeconds(last.bytes + 30_000)).toBe(3);
  });

  it('shows a stall at once: the rate falls while no bytes come, to zero after the window', () => {
    const rate = rateOf(steady(0, 5000, 100, 10));
    expect(rate.bytesPerSecond()).toBe(10_000);
    const held = 50_000;
    const speeds: number[] = [];
    for (let t = 5100; t <= 8000; t += 100) {
      rate.add({ atMs: t, bytes: held });
      speeds.push(rate.bytesPerSecond()!);
    }
    // At 6.5 s half the window is stalled: half the speed.
    expect(speeds[14]).toBe(5000);
    expect(rate.bytesPerSecond()).toBe(0);
    for (let i = 1; i < speeds.length; i++) expect(speeds[i]!).toBeLessThan(speeds[i - 1]!);
    expect(rate.etaSeconds(100_000)).toBeNull();
  });

  it('keeps one sample at or before the window start, so sparse samples still give a rate', () => {
    const rate = rateOf([
      { atMs: 0, bytes: 0 },
      { atMs: 5000, bytes: 50_000 },
    ]);
    expect(rate.bytesPerSecond()).toBe(10_000);
    rate.add({ atMs: 10_000, bytes: 60_000 });
    expect(rate.bytesPerSecond()).toBe(2000);
  });

  const samplesArb = fc
    .array(fc.tuple(fc.nat({ max: 1500 }), fc.nat({ max: 50_000 })), { maxLength: 60 })
    .map((steps) => {
      let atMs = 1_000_000;
      let bytes = 0;
      return steps.map(([dt, db]) => {
        atMs += dt;
        bytes += db;
        return { atMs, bytes };
      });
    });

  it('is the rate since the last sample at or before the window start, and its ETA', () => {
    fc.assert(
      fc.property(
        samplesArb,
        fc.option(fc.nat({ max: 5_000_000 }), { nil: null }),
        (samples, total) => {
          const rate = rateOf(samples);
          const last = samples[samples.length - 1];
          let expected: number | null = null;
          if (last) {
            let first = samples[0]!;
            for (const sample of samples)
              if (sample.atMs <= last.atMs - RATE_WINDOW_MS) first = sample;
            if (last.atMs - first.atMs >= 200) {
              expected = ((last.bytes - first.bytes) * 1000) / (last.atMs - first.atMs);
            }
          }
          expect(rate.bytesPerSecond()).toBe(expected);
          const eta = rate.etaSeconds(total);
          if (expected === null || expected === 0 || total === null) expect(eta).toBeNull();
          else expect(eta).toBe(Math.max(0, (total - last!.bytes) / expected));
        },
      ),
      { numRuns: 300 },
    );
  });
});
