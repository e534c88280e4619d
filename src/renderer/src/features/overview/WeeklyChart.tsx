import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { PortalOverview } from '../../../../shared/ipc/areas/overview';
import { weeklySeries, weeklySummary } from './overviewFormat';
import { weeklyChartOptions } from './weeklyChartOptions';

const HEIGHT = 220;

/** A CSS variable of the current theme (the chart is drawn on a canvas, which has no CSS). */
function themeColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/**
 * Records created and last updated per week (uPlot: a canvas line chart that stays fast with
 * many points), redrawn when the data, the width or the theme changes. The same figures are in
 * the summary above it and in the table under "Show as a table".
 */
export function WeeklyChart({
  overview,
}: {
  overview: Pick<PortalOverview, 'weeks' | 'earlier' | 'later'>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const { weeks } = overview;

  useEffect(() => {
    const element = host.current;
    if (!element || weeks.length === 0) return;
    let chart: uPlot | null = null;
    const draw = () => {
      chart?.destroy();
      chart = new uPlot(
        weeklyChartOptions(Math.max(320, element.clientWidth || 640), HEIGHT, {
          text: themeColor('--text', '#1c2128'),
          grid: themeColor('--border', '#dde1e7'),
          created: themeColor('--accent', '#2a64d6'),
          updated: themeColor('--warn', '#8f5b0f'),
        }),
        weeklySeries(weeks),
        element,
      );
    };
    draw();
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(draw) : null;
    resize?.observe(element);
    // The theme is an attribute of <html> (App.tsx): redraw in the new colours.
    const theme = new MutationObserver(draw);
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      resize?.disconnect();
      theme.disconnect();
      chart?.destroy();
    };
  }, [weeks]);

  return (
    <div className="weekly-chart">
      <p className="muted" data-testid="weekly-summary">
        {weeklySummary(overview)}
      </p>
      {weeks.length > 0 && (
        <>
          <div
            ref={host}
            className="weekly-chart__plot"
            role="img"
            aria-label={weeklySummary(overview)}
          />
          <details>
            <summary>Show as a table</summary>
            <table className="data-table" data-testid="weekly-table">
              <thead>
                <tr>
                  <th scope="col">Week of</th>
                  <th scope="col" className="num">
                    Created
                  </th>
                  <th scope="col" className="num">
                    Updated
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...weeks].reverse().map((week) => (
                  <tr key={week.start}>
                    <td>{week.start}</td>
                    <td className="num">{week.created.toLocaleString()}</td>
                    <td className="num">{week.updated.toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </div>
  );
}
