/**
 * How the recycle bin words an item: its module, who trashed it and when, and how long the service
 * keeps it. Pure.
 */
import { BIN_KEEP_DAYS, type BinEntry, type BinModule } from '../../../../shared/ipc/areas/bin';

export const BIN_MODULE_LABEL: Record<BinModule, string> = {
  projects: 'Projects',
  phases: 'Phases',
  tasklists: 'Task lists',
  tasks: 'Tasks',
  issues: 'Issues',
};

const SINGULAR: Record<BinModule, string> = {
  projects: 'Project',
  phases: 'Phase',
  tasklists: 'Task list',
  tasks: 'Task',
  issues: 'Issue',
};

/** "Task"; a module the contract does not name is shown as the service wrote it. */
export function binModuleText(module: string): string {
  return Object.hasOwn(SINGULAR, module) ? SINGULAR[module as BinModule] : module;
}

export function itemsText(count: number): string {
  return `${count.toLocaleString()} item${count === 1 ? '' : 's'}`;
}

/** "12 days left", "last day" (its last 24 hours), or that only deleting is left. */
export function daysLeftText(entry: BinEntry): string {
  if (!entry.restorable || entry.daysLeft === 0) return 'Past its 30 days: it can only be deleted';
  if (entry.daysLeft === null) return 'Days left not known';
  if (entry.daysLeft <= 1) return 'Last day';
  const days = Math.min(entry.daysLeft, BIN_KEEP_DAYS);
  return `${days} day${days === 1 ? '' : 's'} left`;
}

export function formatWhen(iso: string | null): string | null {
  if (iso === null) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** "3/12/2026, 10:12 by Ana Lopez", each part only if the service said it. */
export function trashedText(entry: BinEntry): string {
  const when = formatWhen(entry.trashedTime);
  if (when && entry.trashedBy) return `${when} by ${entry.trashedBy}`;
  if (when) return when;
  if (entry.trashedBy) return `by ${entry.trashedBy}`;
  return 'Not known';
}
