import { describe, expect, it } from 'vitest';
import { parseHeadlessArgs } from '../../../src/main/router/headless/headlessArgs';
import { VirtualClock, LATEST_ROUTER_TIME_MS } from '../../../src/main/router/engine/virtualClock';

describe('the headless router’s --time-scale', () => {
  it('is refused when the clock would run past the last storable date within a year', () => {
    // At 1e9 the router's time left the storable range after about two and a half hours, and
    // from then on every event was answered 500 ("check the disk").
    for (const scale of ['1e9', '1e15', '1e300']) {
      const parsed = parseHeadlessArgs(['--config', 'a.json', '--time-scale', scale]);
      expect(parsed, scale).toHaveProperty('error');
      expect((parsed as { error: string }).error).toMatch(/at most/);
    }
    const fastest = parseHeadlessArgs(['--config', 'a.json', '--time-scale', '100000']);
    expect(fastest).toMatchObject({ timeScale: 100_000 });
    // At the fastest scale a year of real time stays within the storable range.
    const year = 365 * 24 * 3_600_000;
    let real = 0;
    const clock = new VirtualClock({ scale: 100_000, realNow: () => real });
    real = year;
    expect(clock.now()).toBeLessThanOrEqual(LATEST_ROUTER_TIME_MS);
    clock.close();
  });
});
