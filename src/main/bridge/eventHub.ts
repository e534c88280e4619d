import type { EventName, EventPayload } from '../../shared/ipc/contract';
import { PUSH_RATES, type PushRate } from './pushRates';

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** What a service needs to push an event at its rate (EventHub implements it). */
export interface EventPusher {
  /** `produce` builds the payload when it goes; null: nothing to send any more (its owner closed). */
  push<E extends EventName>(event: E, key: string, produce: () => EventPayload<E> | null): void;
  /** Sends what waits for `event` now (every key), e.g. after a user's own change. */
  flush(event: EventName): void;
}

interface Pending {
  timer: ReturnType<typeof setTimeout>;
  /** The payload to send at the end of the interval; null when nothing was pushed since. */
  produce: (() => unknown | null) | null;
}

/**
 * Pushed events from the engine to every connected transport (IPC windows, web sockets). `emit`
 * sends at once; `push` sends at the event's rate per key (pushRates.ts), so every service that
 * reports changes shares one batcher instead of keeping timers of its own.
 */
export class EventHub implements EventPusher {
  private readonly listeners = new Set<EventListener>();
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(private readonly rates: Partial<Record<EventName, PushRate>> = PUSH_RATES) {}

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    if (this.closed) return;
    for (const listener of this.listeners) listener(event, payload);
  }

  push<E extends EventName>(event: E, key: string, produce: () => EventPayload<E> | null): void {
    if (this.closed) return;
    const rate = this.rates[event];
    if (!rate || rate.intervalMs <= 0) {
      this.send(event, produce);
      return;
    }
    const id = `${event}\u0000${key}`;
    const waiting = this.pending.get(id);
    if (waiting) {
      waiting.produce = produce;
      return;
    }
    if (rate.leading) {
      this.send(event, produce);
      this.arm(event, id, rate, null);
    } else {
      this.arm(event, id, rate, produce);
    }
  }

  flush(event: EventName): void {
    const prefix = `${event}\u0000`;
    for (const [id, waiting] of [...this.pending]) {
      if (!id.startsWith(prefix)) continue;
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      if (waiting.produce) this.send(event, waiting.produce);
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops what waits; nothing is sent after. */
  close(): void {
    this.closed = true;
    for (const waiting of this.pending.values()) clearTimeout(waiting.timer);
    this.pending.clear();
  }

  private send(event: EventName, produce: () => unknown | null): void {
    const payload = produce();
    if (payload !== null) this.emit(event, payload as EventPayload<typeof event>);
  }

  private arm(
    event: EventName,
    id: string,
    rate: PushRate,
    produce: (() => unknown | null) | null,
  ): void {
    const entry: Pending = {
      produce,
      timer: setTimeout(() => {
        this.pending.delete(id);
        const next = entry.produce;
        if (!next || this.closed) return;
        this.send(event, next);
        // A leading key that sent at the end of its interval stays throttled for another one.
        if (rate.leading) this.arm(event, id, rate, null);
      }, rate.intervalMs),
    };
    entry.timer.unref?.();
    this.pending.set(id, entry);
  }
}
