/**
 * What the engine's parts (routerConfiguration, eventSchemas, eventIntake, routerQueries,
 * builtInPublishers) share, handed to each by routerEngine.ts: the store, the configuration held
 * in memory, the clock, the ids, the log and the change signal. The engine makes these and closes
 * them; the parts only use them, and never reach into one another's state.
 */
import type { RouterAccount } from '../../../shared/ipc/areas/router';
import type { ConfigCache } from './configCache';
import { RouterNotFoundError } from './routerErrors';
import type { RouterIds } from './routerIds';
import type { RouterRepository } from '../store/routerRepository';
import type { EventConfigRow } from '../store/routerRows';
import type { RouterClock } from './virtualClock';

export interface RouterLog {
  error(message: string, error: unknown): void;
}

export interface RouterContext {
  readonly repository: RouterRepository;
  readonly config: ConfigCache;
  readonly clock: RouterClock;
  readonly ids: RouterIds;
  readonly log: RouterLog | undefined;
  /**
   * The account (routerConfiguration.ts holds it): routing, explanations and payloads read its
   * time zone.
   */
  account(): RouterAccount;
  /** Reports a change to the app (dropping the configuration cache when `config`). */
  changed(config: boolean, events: boolean): void;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** An event config read fresh (the cache is dropped first: callers have often just written it). */
export function requireEventConfig(config: ConfigCache, id: string): EventConfigRow {
  config.invalidate();
  const row = config.eventConfig(id);
  if (!row) throw new RouterNotFoundError(`No event ${id} exists in the router sandbox.`);
  return row;
}
