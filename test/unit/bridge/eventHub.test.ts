import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';

const change = (moduleId: string) => ({ portalId: 'p1', moduleId });

describe('the event hub pushes each event at its rate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function hub() {
    const events = new EventHub({
      'records.changed': { intervalMs: 1000, leading: true },
      'router.changed': { intervalMs: 250, leading: false },
    });
    const sent: { event: string; payload: unknown }[] = [];
    events.subscribe((event, payload) => sent.push({ event, payload }));
    return { events, sent };
  }

  it('leading: the first push of a key at once, a burst after it once at the end, per key', () => {
    const { events, sent } = hub();
    let built = 0;
    const push = (moduleId: string) =>
      events.push('records.changed', moduleId, () => {
        built++;
        return change(moduleId);
      });
    push('m1');
    push('m2');
    expect(sent.map((s) => s.payload)).toEqual([change('m1'), change('m2')]);
    for (let i = 0; i < 30; i++) push('m1');
    // Nothing more until the interval ends, and no payload built for the folded pushes.
    expect(sent).toHaveLength(2);
    expect(built).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(sent.map((s) => s.payload)).toEqual([change('m1'), change('m2'), change('m1')]);
    expect(built).toBe(3);
    // Still throttled for another interval after a trailing send; quiet keys go at once again.
    push('m1');
    expect(sent).toHaveLength(3);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(4);
    vi.advanceTimersByTime(1000);
    push('m1');
    expect(sent).toHaveLength(5);
  });

  it('trailing: a burst goes once, at the end, built from the state it ended in', () => {
    const { events, sent } = hub();
    let state = 0;
    for (let i = 0; i < 5; i++) {
      state = i;
      events.push('router.changed', '', () => ({ config: state === 4, events: true }));
    }
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(250);
    expect(sent).toEqual([{ event: 'router.changed', payload: { config: true, events: true } }]);
  });

  it('flush sends what waits at once; an event without a rate goes at once; null sends nothing', () => {
    const { events, sent } = hub();
    events.push('router.changed', '', () => ({ config: true, events: false }));
    events.flush('router.changed');
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(1);
    events.push('sync.status', '', () => null);
    expect(sent).toHaveLength(1);
    events.push('accounts.changed', '', () => ({
      accounts: [],
      activeAccountId: null,
      pendingSignIn: null,
    }));
    expect(sent).toHaveLength(2);
  });

  it('sends nothing after it is closed', () => {
    const { events, sent } = hub();
    events.push('router.changed', '', () => ({ config: true, events: false }));
    events.close();
    vi.advanceTimersByTime(1000);
    events.push('records.changed', 'm1', () => change('m1'));
    expect(sent).toEqual([]);
  });
});
