import uPlot from 'uplot';

/** The weekly chart's colours (from the theme's CSS variables: a canvas has no CSS). */
export interface WeeklyChartColors {
  text: string;
  grid: string;
  created: string;
  updated: string;
}

/**
 * The weekly chart's uPlot options. Its x values are week starts at UTC midnight of the portal's
 * local date (weeklySeries), so they are read and shown in UTC and as dates: uPlot's default
 * reads them in the computer's zone, and the week of 2 March showed as "2026-03-01 7:00pm" in New
 * York (and as "5:30am" in Kolkata).
 */
export function weeklyChartOptions(
  width: number,
  height: number,
  colors: WeeklyChartColors,
): uPlot.Options {
  const axis = {
    stroke: colors.text,
    grid: { stroke: colors.grid },
    ticks: { stroke: colors.grid },
  };
  return {
    width,
    height,
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'UTC'),
    scales: { x: { time: true } },
    axes: [axis, { ...axis, size: 60 }],
    series: [
      { label: 'Week of', value: '{YYYY}-{MM}-{DD}' },
      { label: 'Created', stroke: colors.created, width: 2 },
      { label: 'Updated', stroke: colors.updated, width: 2 },
    ],
  };
}
