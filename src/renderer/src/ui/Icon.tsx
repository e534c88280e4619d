/** The icons there are: one per section of the app (app/sections.ts names them by these). */
export type IconName =
  'records' | 'outbox' | 'sync' | 'backups' | 'configure' | 'router' | 'overview' | 'settings';

/** Simple stroked 24×24 outlines, one per section; decorative, so hidden from screen readers. */
const PATHS: Record<IconName, string> = {
  records: 'M3 5h18v14H3z M3 10h18 M3 15h18 M9 5v14',
  outbox: 'M4 13v6h16v-6 M12 15V4 M7.5 8.5 12 4l4.5 4.5',
  sync: 'M20 11a8 8 0 0 0-14.3-4.9L4 8 M4 4v4h4 M4 13a8 8 0 0 0 14.3 4.9L20 16 M20 20v-4h-4',
  backups: 'M3 4h18v5H3z M5 9v11h14V9 M10 13h4',
  // Sliders: three settings, each with its knob.
  configure: 'M4 6h9 M17 6h3 M15 4v4 M4 12h3 M11 12h9 M9 10v4 M4 18h11 M19 18h1 M17 16v4',
  router:
    'M5 6a2 2 0 1 0 0 .1 M5 8v8 M5 18a2 2 0 1 0 0 .1 M19 6a2 2 0 1 0 0 .1 M7 6h5a3 3 0 0 1 3 3v0a3 3 0 0 0 2 2.8 M7 18h10',
  // Bars on a baseline.
  overview: 'M3 20h18 M6 20v-7 M11 20V5 M16 20v-10 M20 20v-4',
  settings:
    'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z M12 2v3 M12 19v3 M4.9 4.9l2.1 2.1 M17 17l2.1 2.1 M2 12h3 M19 12h3 M4.9 19.1 7 17 M17 7l2.1-2.1',
};

export function SectionIcon({ id }: { id: IconName }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[id]} />
    </svg>
  );
}
