// @vitest-environment happy-dom
/**
 * The weekly chart shows each week by the date it starts, wherever the computer is: its x values
 * are UTC midnights of the portal's local week starts (weeklySeries), and uPlot read them in the
 * computer's zone (the week of 2 March drawn as "2026-03-01 7:00pm" in New York). Run in a zone
 * west of UTC and one with a half-hour offset (found by a review of the overview's counts).
 */
import uPlot from 'uplot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { weeklySeries } from '../../../../src/renderer/src/features/overview/overviewFormat';
import { weeklyChartOptions } from '../../../../src/renderer/src/features/overview/weeklyChartOptions';

afterEach(() => {
  vi.unstubAllEnvs();
});

const COLORS = { text: '#000', grid: '#ccc', created: '#00f', updated: '#f80' };
const STARTS = ['2026-03-02', '2026-03-09', '2026-10-26', '2026-11-02', '2027-01-04'];
const weeks = STARTS.map((start) => ({ start, created: 1, updated: 2 }));
const asDate = uPlot.fmtDate('{YYYY}-{MM}-{DD}');

describe('weekly chart options', () => {
  for (const zone of ['America/New_York', 'Asia/Kolkata', 'Pacific/Honolulu']) {
    it(`shows each week by its start date in ${zone}`, () => {
      vi.stubEnv('TZ', zone);
      const options = weeklyChartOptions(640, 220, COLORS);
      const [xs] = weeklySeries(weeks);
      expect(xs.map((x) => asDate(options.tzDate!(x)))).toEqual(STARTS);
      // The legend's value is the date alone, no time of day.
      expect(options.series[0]!.value).toBe('{YYYY}-{MM}-{DD}');
      if (zone !== 'Asia/Kolkata') {
        // uPlot's own default, the computer's zone, shows the day before here.
        expect(asDate(new Date(xs[0]! * 1000))).toBe('2026-03-01');
      }
    });
  }
});
