/**
 * Calls `fire(key)` at most once per `intervalMs` per key: the first call at once, later ones
 * folded into one call at the end of the interval. For change notices that a sync can produce
 * thirty times a second, when a view needs to hear of them only about once a second.
 */
export class KeyedThrottle<K> {
  private readonly timers = new Map<K, { timer: ReturnType<typeof setTimeout>; again: boolean }>();

  constructor(
    private readonly intervalMs: number,
    private readonly fire: (key: K) => void,
  ) {}

  notify(key: K): void {
    const pending = this.timers.get(key);
    if (pending) {
      pending.again = true;
      return;
    }
    this.fire(key);
    this.arm(key);
  }

  close(): void {
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(key: K): void {
    const entry = {
      again: false,
      timer: setTimeout(() => {
        this.timers.delete(key);
        if (entry.again) {
          this.fire(key);
          this.arm(key);
        }
      }, this.intervalMs),
    };
    entry.timer.unref?.();
    this.timers.set(key, entry);
  }
}
