/**
 * How the Sync view and the status bar put sync figures into words. Pure, so the wording is
 * tested without a browser.
 */
import type { EndpointBudget, SyncProgress, SyncStatus } from '../../../../shared/ipc/areas/sync';

/** "45 s", "3 min 20 s", "1 h 5 min": an ETA or a wait, rounded up to whole seconds. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = seconds % 60;
    return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function formatAgo(at: number, now: number): string {
  const seconds = Math.floor((now - at) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** 0–100, or null while the total is unknown. */
export function progressPercent(done: number, total: number | null): number | null {
  if (total === null) return null;
  if (total <= 0) return 100;
  return Math.min(100, Math.round((done / total) * 100));
}

const PHASE_LABEL: Record<SyncProgress['phase'], string> = {
  portals: 'Listing portals',
  metadata: 'Reading modules, layouts and fields',
  records: 'Pulling records',
  incremental: 'Pulling changed records',
  reconcile: 'Checking for deleted records',
  // Comments are read after the module's records (one call a record): the records are all there.
  comments: 'Records up to date · reading comments',
  done: 'Up to date',
  failed: 'Failed',
};

export function phaseLabel(phase: SyncProgress['phase']): string {
  return PHASE_LABEL[phase];
}

/**
 * An endpoint key (`us GET /api/v3/portal/{portal_id}/entities portal=123`) as the view shows it:
 * the data center, the method and route, and the portal's name when known.
 */
export function describeEndpoint(
  key: string,
  portalName: (portalId: string) => string | undefined,
): { dc: string; route: string; portal: string | null } {
  // The route may hold a space (the comments path's literal segment, spec quirk).
  const match = /^(\S+) (\S+) (.+?)(?: portal=(\S+))?$/.exec(key);
  if (!match) return { dc: '', route: key, portal: null };
  const [, dc, method, route, portalId] = match;
  return {
    dc: dc!,
    route: `${method} ${route}`,
    portal: portalId === undefined ? null : (portalName(portalId) ?? portalId),
  };
}

/** What a budget row says about when the next call may go. */
export function budgetState(budget: EndpointBudget, now: number): string {
  if (budget.blockedUntil !== null && budget.blockedUntil > now) {
    return `Blocked by the service for ${formatDuration(budget.blockedUntil - now)}`;
  }
  if (budget.remaining > 0) return 'Free now';
  if (budget.nextSlotAt === null) return 'Waiting for an answer';
  return `Next slot in ${formatDuration(Math.max(0, budget.nextSlotAt - now))}`;
}

/** The status bar's one line about sync. */
export function syncSummary(status: SyncStatus | null, now: number): string {
  if (!status) return 'Sync: …';
  if (status.running.length > 0) {
    const rows = status.progress.filter(
      (row) => row.moduleId !== null && status.running.some((run) => run.runId === row.runId),
    );
    const done = rows.reduce((sum, row) => sum + row.done, 0);
    const total = rows.every((row) => row.total !== null)
      ? rows.reduce((sum, row) => sum + (row.total ?? 0), 0)
      : null;
    const percent = rows.length > 0 ? progressPercent(done, total) : null;
    const verb = status.paused ? 'Sync paused' : 'Syncing';
    return percent === null ? `${verb}…` : `${verb} ${percent}%`;
  }
  const last = status.lastSynced.reduce((latest, row) => Math.max(latest, row.at), 0);
  if (status.accounts.length === 0 && last === 0) return 'Not synced yet';
  return last === 0 ? 'Not synced yet' : `Synced ${formatAgo(last, now)}`;
}

/** Why a finished run did not do everything, in the user's words (null when it did). */
export function runProblems(run: SyncStatus['log'][number]): string[] {
  const problems = run.outcomes
    .filter((outcome) => !outcome.ok && outcome.message)
    .map((outcome) => outcome.message!);
  if (run.message && !problems.includes(run.message)) problems.unshift(run.message);
  return problems;
}

export interface ModuleRow {
  key: string;
  portalId: string;
  moduleId: string;
  module: string;
  progress: SyncProgress | undefined;
  lastSynced: number | undefined;
}

/**
 * The module rows of the Sync view per portal: what synced before and what runs now, named by the
 * run's report, else by the mirror's module names (after a restart no run has reported yet).
 */
export function moduleRows(
  status: SyncStatus,
  moduleNames: Record<string, string>,
): Map<string, ModuleRow[]> {
  const rows = new Map<string, ModuleRow>();
  for (const synced of status.lastSynced) {
    const key = `${synced.portalId}/${synced.moduleId}`;
    rows.set(key, {
      key,
      portalId: synced.portalId,
      moduleId: synced.moduleId,
      module: moduleNames[key] ?? `Module ${synced.moduleId}`,
      progress: undefined,
      lastSynced: synced.at,
    });
  }
  for (const progress of status.progress) {
    if (progress.portalId === null || progress.moduleId === null) continue;
    const key = `${progress.portalId}/${progress.moduleId}`;
    const row = rows.get(key);
    // The backfill's comment progress must not hide a run's record progress.
    if (row?.progress && row.progress.runId !== null && progress.runId === null) continue;
    rows.set(key, {
      key,
      portalId: progress.portalId,
      moduleId: progress.moduleId,
      module: progress.module ?? row?.module ?? moduleNames[key] ?? `Module ${progress.moduleId}`,
      progress,
      lastSynced: row?.lastSynced,
    });
  }
  const byPortal = new Map<string, ModuleRow[]>();
  for (const row of rows.values()) {
    const list = byPortal.get(row.portalId) ?? [];
    list.push(row);
    byPortal.set(row.portalId, list);
  }
  for (const list of byPortal.values()) list.sort((a, b) => a.module.localeCompare(b.module));
  return byPortal;
}
