import type { OverallStatus, ExecutionStatus } from '../../../../shared/ipc/areas/router';

/** Virtual ms as a local date and time, seconds included. */
export function formatTime(ms: number | null): string {
  if (ms === null) return '—';
  return new Date(ms).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** A CSS modifier per status: green, amber, red or grey. */
export function statusTone(status: OverallStatus | ExecutionStatus): string {
  switch (status) {
    case 'Success':
      return 'ok';
    case 'Failed':
      return 'danger';
    case 'Dropped':
    case 'Unprocessed':
    case 'Unmatched':
      return 'muted';
    default:
      return 'warn';
  }
}

/** `datetime-local` input value (local time) to epoch ms, or undefined when empty. */
export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/** Parses JSON typed by the user; the error names the problem. */
export function parseJsonInput(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** "Name: value" lines to name/value pairs (headers, query parameters). */
export function parsePairs(text: string): { name: string; value: string }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      return colon === -1
        ? { name: line, value: '' }
        : { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
}

export function formatPairs(pairs: readonly { name: string; value: string }[]): string {
  return pairs.map((pair) => `${pair.name}: ${pair.value}`).join('\n');
}

/**
 * How long ago, in plain words: "just now", "42 s ago", "5 min ago", "3 h ago", "2 days ago".
 * `ms` is the distance back from now (a negative one, from a clock read earlier, is "just now").
 */
export function formatAgo(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} days ago`;
}
