import type { IconName } from '../ui/Icon';

/** The app's sections, in sidebar order; Ctrl/Cmd + the 1-based position switches to one. */
export const SECTIONS = [
  {
    id: 'records',
    label: 'Records',
    empty: {
      title: 'No portals mirrored yet',
      body: 'Every record of every portal you mirror appears here: a table per module with filters, search and a detail panel, all readable without a network.',
      // Also shown while a fresh sign-in's first sync runs, so it points to Sync as well.
      next: 'Sign in to a portal (top left); its first sync fills this view, and the Sync section shows how far it is.',
    },
  },
  {
    id: 'outbox',
    label: 'Outbox',
    empty: {
      title: 'No pending edits',
      body: 'Edits you make offline wait here until they are replayed to the service, each exactly once. Conflicts with changes made by others are shown field by field.',
      next: 'Edit a mirrored record to queue a change.',
    },
  },
  {
    id: 'sync',
    label: 'Sync',
    empty: {
      title: 'Nothing synced yet',
      body: "Each portal's mirror, its progress and ETA, the rate-limit budget of every endpoint and the log of recent runs appear here.",
      next: 'Sign in to a portal to start its first sync.',
    },
  },
  {
    id: 'backups',
    label: 'Backups',
    empty: {
      title: 'No portals to back up yet',
      body: 'Backups are made by the service, downloaded here, checked with their access code and kept in your data directory, ready to drag out of the window.',
      next: 'Sign in to a portal (top left) and let its first sync finish; it then appears here.',
    },
  },
  {
    id: 'configure',
    label: 'Configure',
    empty: {
      title: 'No portals to configure yet',
      body: "A portal's modules are administered here, offline too: create one, rename it, change its projects or layout, deactivate it, or move it to the module bin. Every change is checked at once, shows at once, and waits in the Outbox until it is sent.",
      next: 'Sign in to a portal (top left) and let its first sync finish; its modules then appear here.',
    },
  },
  {
    id: 'router',
    label: 'Event router',
    empty: {
      // The built-in publishers (sync, sign-in, each signed-in portal) always exist: say what is missing.
      title: 'No rules or custom publishers yet',
      body: 'A local sandbox for event routing: publishers, event schemas, rules and webhook targets, with every delivery and its status recorded, so you see what your endpoint would receive.',
      next: 'Create a rule to route the built-in publishers’ events (syncs, sign-ins, records each signed-in portal changes) to a target, or add a custom publisher for your own events.',
    },
  },
  {
    id: 'overview',
    label: 'Overview',
    empty: {
      title: 'No portals to show yet',
      body: 'A portal at a glance, from the local mirror: its records per module, per status and per week, the edits waiting in the Outbox, the rate budgets in use and the age of its last backup. A bar opens those records.',
      next: 'Sign in to a portal (top left) and let its first sync run; it then appears here.',
    },
  },
  { id: 'settings', label: 'Settings', empty: null },
  // Every section has its icon (ui/Icon.tsx).
] as const satisfies readonly { id: IconName; label: string; empty: unknown }[];

export type SectionId = (typeof SECTIONS)[number]['id'];
export type Section = (typeof SECTIONS)[number];

export function sectionByShortcut(digit: string): SectionId | undefined {
  const index = Number(digit) - 1;
  return Number.isInteger(index) ? SECTIONS[index]?.id : undefined;
}
