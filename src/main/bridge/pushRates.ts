/**
 * How often each pushed event may reach the renderer, per key (EventHub.push). The one place that
 * decides it: services push as often as something changes, and the hub sends at most once per
 * interval per key, building the payload only when it goes. Events not listed go at once.
 *
 * `leading`: the first push of a quiet key goes at once (a user sees the first change without
 * waiting), later ones within the interval fold into one at its end. Without it every push waits
 * for the end of the interval, so a burst that ends in a calm state is sent once, in that state.
 */
import type { EventName } from '../../shared/ipc/contract';

export interface PushRate {
  intervalMs: number;
  leading: boolean;
}

export const PUSH_RATES: Partial<Record<EventName, PushRate>> = {
  // Ours: the Sync view and status bar need no more than this (progress can come 30 times a second).
  'sync.status': { intervalMs: 250, leading: true },
  // Ours: per module; a view hears that its records changed about once a second while a sync
  // writes them, and at once when a single change (an edit, a replay) arrives.
  'records.changed': { intervalMs: 1000, leading: true },
  // Ours: counts while a replay runs; a local change is flushed at once (OutboxService.queued).
  'outbox.changed': { intervalMs: 200, leading: false },
  // Ours: a burst of deliveries is one refresh of the router's views.
  'router.changed': { intervalMs: 250, leading: false },
  // Ours: per backup; a stage change shows at once, a download's progress about four times a
  // second (the job writes its row no more often).
  'backups.changed': { intervalMs: 250, leading: true },
  // Ours: per export; its start and end show at once (RecordsExports flushes them), its rows about
  // four times a second.
  'records.exportProgress': { intervalMs: 250, leading: true },
  // Ours: per import; its phases' starts and ends show at once (RecordsImports flushes them),
  // its counts about four times a second.
  'records.importProgress': { intervalMs: 250, leading: true },
};
