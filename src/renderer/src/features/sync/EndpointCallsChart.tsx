import type { EndpointBudget } from '../../../../shared/ipc/areas/sync';
import { barShare, callsChartSummary } from './endpointCharts';

const WIDTH = 240;
const HEIGHT = 56;

/**
 * One endpoint's calls over the previous and the current window: each bar the calls in the window
 * ending there, the dashed line the limit, the thin line where the current window begins. Few
 * points, so plain SVG (uPlot draws the overview's weekly line, where points are many).
 */
export function EndpointCallsChart({ budget, label }: { budget: EndpointBudget; label: string }) {
  const points = budget.calls.inWindow;
  const step = WIDTH / Math.max(1, points.length);
  const limitY = HEIGHT * (1 - barShare(budget.limit, budget.limit));
  const summary = callsChartSummary(budget);
  const over = (calls: number) => calls > budget.limit;
  return (
    <figure className="calls-chart" data-testid="endpoint-calls-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label={`${label}: ${summary}`}
      >
        {points.map((calls, i) => {
          const height = HEIGHT * barShare(calls, budget.limit);
          return (
            <rect
              key={i}
              className={over(calls) ? 'calls-chart__bar is-over' : 'calls-chart__bar'}
              x={i * step + 1}
              y={HEIGHT - height}
              width={Math.max(1, step - 2)}
              height={height}
            />
          );
        })}
        <line className="calls-chart__limit" x1={0} x2={WIDTH} y1={limitY} y2={limitY} />
        <line className="calls-chart__divider" x1={WIDTH / 2} x2={WIDTH / 2} y1={0} y2={HEIGHT} />
      </svg>
      <figcaption>
        <span className="calls-chart__label">{label}</span>
        <span className="muted">
          Previous window {budget.calls.previous} · current {budget.calls.current} of {budget.limit}
        </span>
      </figcaption>
    </figure>
  );
}
