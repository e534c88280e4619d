/**
 * The one source of "can PortalDesk talk to the service now": whether the service answered the
 * last API call (fed by the request scheduler, which sees every call of the app) and the user's
 * persisted "Work offline" switch. The sync service, the outbox and the status bar read it and
 * listen to it; nothing else keeps a copy.
 */
import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import { namedStatements } from '../store/namedStatements';
import connectivitySql from './queries/connectivity.sql?raw';
import type { CallOutcome } from '../api/requestScheduler';
import { isNetworkFailure } from '../api/client/networkFailure';

const queries = requireQueries(
  parseNamedQueries(connectivitySql, 'connectivity.sql'),
  ['setting', 'writeSetting'] as const,
  'connectivity.sql',
);

const WORK_OFFLINE_KEY = 'work_offline';

export interface ConnectivityState {
  /**
   * The service answered the last call (true), the last call could not reach it (false), or no
   * call has ended since start-up (null).
   */
  reachable: boolean | null;
  /** The user's switch: nothing is sent while it is on. Kept across restarts. */
  workOffline: boolean;
}

/** Where the switch is kept; the store's table by default (connectivity.sql). */
export interface WorkOfflineStore {
  read(): boolean;
  write(on: boolean): void;
}

export function workOfflineStore(db: Database.Database): WorkOfflineStore {
  const statement = namedStatements(db, queries);
  return {
    read: () => statement('setting').pluck().get(WORK_OFFLINE_KEY) === 'true',
    write: (on) => {
      statement('writeSetting').run(WORK_OFFLINE_KEY, on ? 'true' : 'false');
    },
  };
}

/** The switch in memory only (tests, benchmarks): starts off. */
export function memoryWorkOfflineStore(initial = false): WorkOfflineStore {
  let on = initial;
  return { read: () => on, write: (value) => void (on = value) };
}

/** What connectivity reads the connection from: the request scheduler every API call passes. */
export interface CallSource {
  onCallEnded(listener: (outcome: CallOutcome) => void): () => void;
}

export class Connectivity {
  /** A connectivity that reads every call `calls` (the app's request scheduler) ends. */
  static fedBy(calls: CallSource, store: WorkOfflineStore): Connectivity {
    const connectivity = new Connectivity(store);
    calls.onCallEnded((outcome) => {
      // Any HTTP answer (a 429 or a 500 too) came from the service; a failure says it could not
      // be reached only when it failed in the network, not when we stopped it or had no token.
      if (outcome.answered) connectivity.observed(true);
      else if (isNetworkFailure(outcome.error)) connectivity.observed(false);
    });
    return connectivity;
  }

  private reachable: boolean | null = null;
  private workOffline: boolean;
  private readonly listeners = new Set<
    (state: ConnectivityState, was: ConnectivityState) => void
  >();

  constructor(private readonly store: WorkOfflineStore) {
    this.workOffline = store.read();
  }

  state(): ConnectivityState {
    return { reachable: this.reachable, workOffline: this.workOffline };
  }

  /** What the user sees: offline while the switch is on, else whether the service answered. */
  online(): boolean | null {
    return this.workOffline ? false : this.reachable;
  }

  /** A call ended: the service answered it (true) or could not be reached (false). */
  observed(reachable: boolean): void {
    this.update({ reachable });
  }

  setWorkOffline(on: boolean): void {
    if (on === this.workOffline) return;
    this.store.write(on);
    this.update({ workOffline: on });
  }

  /** Called with the new state and the one before, on every change. Returns the disconnect. */
  onChange(listener: (state: ConnectivityState, was: ConnectivityState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private update(change: Partial<ConnectivityState>): void {
    const was = this.state();
    if (change.reachable !== undefined) this.reachable = change.reachable;
    if (change.workOffline !== undefined) this.workOffline = change.workOffline;
    const now = this.state();
    if (now.reachable === was.reachable && now.workOffline === was.workOffline) return;
    for (const listener of this.listeners) listener(now, was);
  }
}
