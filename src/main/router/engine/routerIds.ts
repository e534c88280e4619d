/**
 * Long numeric ids (spec 000: ids are "long" numeric strings): 13 digits of milliseconds then a
 * 5-digit sequence, so ids sort by creation and stay unique within a process and across restarts
 * (the clock moves on). Kept below 2^63 so any consumer can hold them in a signed 64-bit integer.
 */
export class RouterIds {
  private lastMs = 0;
  private seq = 0;

  constructor(private readonly realNow: () => number = Date.now) {}

  next(): string {
    let ms = Math.max(this.realNow(), this.lastMs);
    if (ms === this.lastMs) {
      this.seq += 1;
      if (this.seq > 99_999) {
        ms += 1;
        this.seq = 0;
      }
    } else {
      this.seq = 0;
    }
    this.lastMs = ms;
    return `${ms}${String(this.seq).padStart(5, '0')}`;
  }
}
