/**
 * A byte count as people read it ("14.4 MB"), binary units. Pure; shared so the engine's sentences
 * ("Download paused; 6.0 MB of 14.4 MB kept") and the views write sizes alike.
 */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '–';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  // As written, rounded: 9.96 is "10", and 1023.6 KB is the next unit's "1.0", not "1024 KB".
  const written = (value: number) => value.toFixed(value < 9.95 ? 1 : 0);
  let value = bytes / 1024;
  let unit = 0;
  while (Number(written(value)) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${written(value)} ${units[unit]}`;
}
