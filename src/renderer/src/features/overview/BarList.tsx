import { barPercent } from './overviewFormat';

export interface Bar {
  key: string;
  label: string;
  value: number;
  /** The status's own colour, when it has one. */
  color?: string | null;
}

/**
 * A bar chart as a list of buttons: each bar is focusable, says its label, count and action to
 * screen readers ("Approved 230 records. Open … in Records."), and opens what it counts (Enter or
 * Space, or a click).
 */
export function BarList({
  bars,
  onOpen,
  openLabel,
  testId,
}: {
  bars: readonly Bar[];
  onOpen: (bar: Bar) => void;
  /** "Open them in Records": the action in words, for the accessible name. */
  openLabel: string;
  testId?: string;
}) {
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  return (
    <ul className="bar-list" data-testid={testId}>
      {bars.map((bar) => (
        <li key={bar.key}>
          <button type="button" className="bar-row" onClick={() => onOpen(bar)}>
            {/* The name is the text itself (label, count, then the action, read but not shown),
                so what is seen is what a voice-control user says to press it. */}
            <span className="bar-row__label">{bar.label}</span>{' '}
            <span className="bar-row__track" aria-hidden="true">
              <span
                className="bar-row__fill"
                style={{
                  width: `${barPercent(bar.value, max)}%`,
                  ...(bar.color ? { background: bar.color } : {}),
                }}
              />
            </span>
            <span className="bar-row__value">{bar.value.toLocaleString()}</span>
            <span className="visually-hidden">
              {` record${bar.value === 1 ? '' : 's'}. ${openLabel}`}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
