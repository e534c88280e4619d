/**
 * Builds expression indexes for the custom fields lists actually filter and sort on, off the
 * engine's thread.
 *
 * A list that compares a custom field with no index yet is answered the slow way (every record's
 * JSON read) and reports the expression here (RecordQuery.useIndexes); the index is then built by
 * a worker thread on a connection of its own, once the engine's connection has written nothing
 * for QUIET_MS (a sync writes a page every second or so: the build goes between two pages, not in
 * the middle of a burst) and no sync run is going on (`busy`). While it builds, the engine reads
 * on (WAL). A write of the engine meanwhile must wait for the build's commit: the engine's
 * busy_timeout is raised while a build runs so a write that starts its transaction by writing
 * waits (seconds at a million records) instead of failing after the store's 5 s; a transaction
 * that reads first and then writes is refused by SQLite at once whatever the timeout, which is
 * why builds wait for quiet and for syncs to end. Later lists use the index without being told:
 * SQLite matches the expression (customFieldIndexDefinition).
 *
 * Each module keeps at most MAX_CUSTOM_FIELD_INDEXES_PER_MODULE of them (customFieldIndexEviction),
 * and indexes of modules no longer mirrored are dropped at start-up.
 */
import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import querySql from '../queries/mirrorQuery.sql?raw';
import {
  customFieldIndexDefinition,
  customFieldIndexModule,
  isCurrentCustomFieldIndex,
  isCustomFieldExpression,
  type CustomFieldIndexDefinition,
} from './customFieldIndexDefinition';
import { customFieldIndexEviction } from './customFieldIndexEviction';
import { runCustomFieldIndexJob, type CustomFieldIndexJob } from './customFieldIndexJob';
import type {
  CustomFieldIndexReply,
  CustomFieldIndexRequest,
  CustomFieldIndexWorkerData,
} from './customFieldIndexWorker';
import type { CustomFieldIndexUse, RecordQuery } from './recordQuery';
import { CUSTOM_FIELD_INDEX_WORKER_SCRIPT } from './customFieldIndexWorkerScript';

const queries = requireQueries(
  parseNamedQueries(querySql, 'mirrorQuery.sql'),
  ['dataVersion', 'customFieldIndexes', 'moduleKeys'] as const,
  'mirrorQuery.sql',
);

/** How long the engine's connection must have written nothing before a build starts. */
export const QUIET_MS = 1000;
/** How often the engine's write count is looked at while a build waits for quiet. */
const QUIET_POLL_MS = 100;
/**
 * The engine connection's busy_timeout while a build holds the write lock: longer than any build
 * (a million records took 5-9 s on the loaded build machine), so a write waits, never fails.
 */
export const BUILD_WRITE_WAIT_MS = 120_000;

export interface CustomFieldIndexerOptions {
  /** The engine's connection: where lists read, and whose writes a build should not meet. */
  db: Database.Database;
  /** The database file, which the worker opens on its own connection. */
  file: string;
  /**
   * The worker's script; by default the app's built one (customFieldIndexWorkerScript.ts). With
   * none (the sources under vitest) nothing is built: lists stay correct, only unindexed.
   */
  workerScript?: string | URL | undefined;
  /** better-sqlite3's binary for this runtime (the desktop app's Electron build). */
  nativeBinding?: string | undefined;
  log?: { warn(message: string): void };
  /**
   * True while the engine writes in bursts, as a sync run does: builds wait until it ends. Its
   * transactions read before they write, and SQLite refuses such a transaction at once ("database
   * is locked", busy_timeout or not) while another connection holds the write lock.
   */
  busy?: () => boolean;
  now?: () => number;
  quietMs?: number;
  maxPerModule?: number;
}

/** One index built (or dropped to make room), for the log and the benchmarks. */
export interface CustomFieldIndexBuild {
  name: string;
  moduleKey: number;
  expression: string;
  dropped: string[];
  /** From the request to the index being usable. */
  totalMs: number;
  /** The worker's transaction: the time the engine's writes would have waited. */
  lockedMs: number;
}

interface Pending {
  job: CustomFieldIndexJob;
  definition?: CustomFieldIndexDefinition;
  requestedAt: number;
}

export class CustomFieldIndexer implements CustomFieldIndexUse {
  /** Existing indexes by name: module and last use (0: not used since start). */
  private readonly existing = new Map<string, { moduleKey: number; lastUsed: number }>();
  private readonly queue: Pending[] = [];
  private readonly queued = new Set<string>();
  /** Indexes that failed to build: not tried again until the engine restarts. */
  private readonly failed = new Set<string>();
  private readonly done: CustomFieldIndexBuild[] = [];
  private readonly idle: (() => void)[] = [];
  private readonly totalChanges: Database.Statement;
  private readonly now: () => number;
  private readonly quietMs: number;
  private readonly maxPerModule: number | undefined;
  private worker: Worker | undefined;
  private running: (Pending & { id: number }) | undefined;
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  private quiet: { changes: number; since: number } | undefined;
  private enabled: boolean;
  private closed = false;
  /** The engine connection's own busy_timeout while a build has raised it. */
  private savedBusyTimeout: number | undefined;
  private readonly workerScript: string | URL | undefined;

  /** An indexer whose indexes `query`'s lists report what they need to (the engine's wiring). */
  static attach(query: RecordQuery, options: CustomFieldIndexerOptions): CustomFieldIndexer {
    const indexer = new CustomFieldIndexer(options);
    query.useIndexes(indexer);
    return indexer;
  }

  constructor(private readonly options: CustomFieldIndexerOptions) {
    this.now = options.now ?? Date.now;
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.maxPerModule = options.maxPerModule;
    this.workerScript = options.workerScript ?? CUSTOM_FIELD_INDEX_WORKER_SCRIPT;
    this.enabled = this.workerScript !== undefined;
    // total_changes(): rows this connection changed, so a change means it wrote.
    this.totalChanges = options.db.prepare(queries.dataVersion).pluck();
    const indexes = options.db.prepare(queries.customFieldIndexes).all() as {
      name: string;
      sql: string | null;
    }[];
    // Indexes of an earlier definition could answer a cached statement of another module
    // (customFieldIndexDefinition.ts): dropped here, at once and on this connection, before any
    // list runs. Dropping is quick (pages freed, nothing computed); lists rebuild what they need.
    const unsafe = indexes
      .filter((index) => !isCurrentCustomFieldIndex(index.name, index.sql))
      .map((index) => index.name);
    if (unsafe.length > 0) {
      runCustomFieldIndexJob(options.db, { drop: unsafe });
      options.log?.warn(
        `Dropped ${unsafe.length} custom field index(es) of an earlier version; lists rebuild the ones they need.`,
      );
    }
    const modules = new Set(options.db.prepare(queries.moduleKeys).pluck().all() as number[]);
    const orphans: string[] = [];
    for (const { name } of indexes) {
      const moduleKey = customFieldIndexModule(name);
      if (moduleKey === undefined || unsafe.includes(name)) continue;
      if (modules.has(moduleKey)) this.existing.set(name, { moduleKey, lastUsed: 0 });
      else orphans.push(name);
    }
    // A module no longer mirrored keeps its partial indexes in the schema; nothing reads them.
    if (orphans.length > 0 && this.enabled) {
      this.queue.push({ job: { drop: orphans }, requestedAt: this.now() });
      this.schedule();
    }
  }

  /** Lists of `moduleKey` compared these expressions (over `r`); builds the missing indexes. */
  used(moduleKey: number, expressions: readonly string[]): void {
    const now = this.now();
    for (const expression of expressions) {
      // Only the lists' own custom-field expressions come here; anything else is never indexed.
      if (!isCustomFieldExpression(expression)) continue;
      const definition = customFieldIndexDefinition(moduleKey, expression);
      const known = this.existing.get(definition.name);
      if (known) {
        known.lastUsed = now;
        continue;
      }
      if (!this.enabled || this.queued.has(definition.name) || this.failed.has(definition.name)) {
        continue;
      }
      this.queued.add(definition.name);
      this.queue.push({
        job: { drop: [], create: { moduleKey, queryExpression: expression } },
        definition,
        requestedAt: now,
      });
    }
    this.schedule();
  }

  /** Whether the worker is changing an index right now. */
  get building(): boolean {
    return this.running !== undefined;
  }

  /** Builds finished since the engine started, oldest first. */
  builds(): readonly CustomFieldIndexBuild[] {
    return this.done;
  }

  /** Resolves once nothing is queued or building (at once when idle). */
  whenIdle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Stops the worker; a build in progress is rolled back by SQLite, nothing half-made remains. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
    this.queued.clear();
    this.running = undefined;
    this.restoreBusyTimeout();
    void this.worker?.terminate();
    this.worker = undefined;
    this.settle();
  }

  private settle(): void {
    if (this.running || this.queue.length > 0) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private schedule(): void {
    if (this.closed || this.running || this.timer || this.queue.length === 0) {
      this.settle();
      return;
    }
    const changes = this.totalChanges.get() as number;
    const busy = this.options.busy?.() === true;
    if (!this.quiet || this.quiet.changes !== changes || busy) {
      this.quiet = { changes, since: this.now() };
    }
    const wait = busy ? QUIET_POLL_MS : this.quiet.since + this.quietMs - this.now();
    if (wait > 0) {
      this.timer = setTimeout(
        () => {
          this.timer = undefined;
          this.schedule();
        },
        Math.min(wait, QUIET_POLL_MS),
      );
      this.timer.unref();
      return;
    }
    this.quiet = undefined;
    this.dispatch();
  }

  private dispatch(): void {
    const next = this.queue.shift();
    if (!next) return;
    let job = next.job;
    if (next.definition) {
      this.queued.delete(next.definition.name);
      const moduleKey = next.definition.moduleKey;
      const ofModule = [...this.existing]
        .filter(([, index]) => index.moduleKey === moduleKey)
        .map(([name, index]) => ({ name, lastUsed: index.lastUsed }));
      const evict = customFieldIndexEviction(ofModule, this.now(), this.maxPerModule);
      if (evict === null) {
        // Every index of the module is in use: this one stays unbuilt until one falls idle.
        this.schedule();
        return;
      }
      job = { ...job, drop: evict };
    }
    this.running = { ...next, job, id: this.nextId++ };
    this.raiseBusyTimeout();
    try {
      this.ensureWorker().postMessage({
        id: this.running.id,
        job,
      } satisfies CustomFieldIndexRequest);
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
    }
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const data: CustomFieldIndexWorkerData = {
      portaldeskCustomFieldIndexWorker: true,
      file: this.options.file,
      ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}),
    };
    const worker = new Worker(this.workerScript as string | URL, { workerData: data });
    // Idle between builds, it must not keep the process alive.
    worker.unref();
    worker.on('message', (reply: CustomFieldIndexReply) => this.finish(reply));
    worker.on('error', (error) => this.broken(error.message));
    worker.on('exit', (code) => {
      if (!this.closed && this.worker === worker) this.broken(`it stopped with code ${code}`);
    });
    this.worker = worker;
    return worker;
  }

  private raiseBusyTimeout(): void {
    if (this.savedBusyTimeout !== undefined) return;
    this.savedBusyTimeout = this.options.db.pragma('busy_timeout', { simple: true }) as number;
    this.options.db.pragma(`busy_timeout = ${BUILD_WRITE_WAIT_MS}`);
  }

  private restoreBusyTimeout(): void {
    if (this.savedBusyTimeout === undefined) return;
    if (this.options.db.open) this.options.db.pragma(`busy_timeout = ${this.savedBusyTimeout}`);
    this.savedBusyTimeout = undefined;
  }

  private finish(reply: CustomFieldIndexReply): void {
    const running = this.running;
    if (!running || reply.id !== running.id) return;
    this.running = undefined;
    this.restoreBusyTimeout();
    if (reply.ok) {
      for (const name of reply.dropped) this.existing.delete(name);
      if (reply.created && running.definition) {
        this.existing.set(reply.created, {
          moduleKey: running.definition.moduleKey,
          lastUsed: this.now(),
        });
        this.done.push({
          name: reply.created,
          moduleKey: running.definition.moduleKey,
          expression: running.definition.expression,
          dropped: reply.dropped,
          totalMs: this.now() - running.requestedAt,
          lockedMs: reply.lockedMs,
        });
      }
    } else {
      this.fail(reply.message);
      return;
    }
    this.schedule();
  }

  private fail(message: string): void {
    const running = this.running;
    this.running = undefined;
    this.restoreBusyTimeout();
    if (running?.definition) {
      this.failed.add(running.definition.name);
      this.options.log?.warn(
        `Could not index the custom field expression ${running.definition.expression} of module ${running.definition.moduleKey}: ${message}. ` +
          'Its lists stay correct, only slower; the index is tried again when PortalDesk restarts.',
      );
    } else if (running) {
      this.options.log?.warn(`Could not drop unused custom field indexes: ${message}.`);
    }
    this.schedule();
  }

  /** The worker cannot run (no binary for it, or it died): lists go on unindexed. */
  private broken(message: string): void {
    if (this.closed) return;
    this.options.log?.warn(
      `The custom field index worker stopped: ${message}. Lists stay correct but filters and sorts on custom fields stay slow until PortalDesk restarts.`,
    );
    this.enabled = false;
    this.worker = undefined;
    this.running = undefined;
    this.restoreBusyTimeout();
    this.queue.length = 0;
    this.queued.clear();
    this.settle();
  }
}
