/**
 * Download speed and time left, from samples of (time, bytes): the rate over the last few
 * seconds, so a stall shows at once and an early burst does not promise too much.
 */
export interface RateSample {
  atMs: number;
  bytes: number;
}

/** Ours: the window the rate is measured over. */
export const RATE_WINDOW_MS = 3_000;

export class TransferRate {
  private readonly samples: RateSample[] = [];

  add(sample: RateSample): void {
    this.samples.push(sample);
    const oldest = sample.atMs - RATE_WINDOW_MS;
    // Keep one sample at or before the window's start, so the window is always covered.
    while (this.samples.length > 2 && this.samples[1]!.atMs <= oldest) this.samples.shift();
  }

  /** Bytes per second, or null until two samples a moment apart exist. */
  bytesPerSecond(): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.atMs - first.atMs < 200) return null;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.atMs - first.atMs));
  }

  /** Seconds left for `total`, or null when the total or the rate is unknown (or zero). */
  etaSeconds(total: number | null): number | null {
    const rate = this.bytesPerSecond();
    const last = this.samples[this.samples.length - 1];
    if (total === null || rate === null || rate <= 0 || !last) return null;
    return Math.max(0, (total - last.bytes) / rate);
  }
}
