/**
 * The crash harness (issue 14; `npm run test:crash`): the engine in a child process
 * (crashChild.ts), killed with SIGKILL at random points of a full sync and of an outbox replay,
 * while another client trashes, creates and edits records on the emulator and the emulator's
 * faults fail reads and drop the answers of applied writes. After the last restart:
 *
 * - the sync ends `done` and the mirror holds exactly the server's records, field by field;
 * - every queued operation reached the service exactly once (the emulator's `writes_applied`).
 *
 * A fixed number of trials per run, each from a seed (printed, with the trial counts, as one JSON
 * line at the end); CRASH_SEED=N runs the same trials again. Kill points are counted in the
 * child's `work` lines: records written to the mirror (sync progress) and changes of the outbox.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultRule } from '@portaldesk/emulator/faults';
import { emulatorServiceProfile } from '../../src/main/api/client/emulatorProfile';
import { DATABASE_FILE } from '../../src/main/store/store';
import { grantToken, testEmulator, type RunningEmulator } from '../support/emulator';
import { tempDir } from '../support/tempDir';
import { workerBundle } from '../support/workerBundle';
import type { ChildJob, QueuedOp } from './childJob';
import { runChild, type ChildRun } from './childRun';
import { mirrorDifferences, type MirrorRow, type ServerRecord } from './compareMirror';
import { deliveryProblems, type PlannedOp } from './exactlyOnce';
import { Random } from './random';
import {
  changeWhileDown,
  listRecords,
  MANDATORY,
  type ModuleOnServer,
  type Service,
} from './serverChanges';

/**
 * Ours: trials per run, sized so the harness takes about two minutes on two busy cores (a sync
 * trial about 4 s, a replay trial about 10 s: the outbox waits out its backoff after each answer
 * lost).
 */
const SYNC_TRIALS = 10;
const REPLAY_TRIALS = 8;
/** A backup trial takes about 3 s: a small sync, then a backup killed 2 to 4 times. */
const BACKUP_TRIALS = 5;
const BACKUP_RECORDS = 600;
/** Kills per trial: from 2 to 4 (fewer when a run ends before its kill point), then one run to the end. */
const KILLS = { min: 2, max: 4 };
/** Records of the emulator in a full-sync trial (two portals, three custom modules each). */
const SYNC_RECORDS = 1200;
const REPLAY_RECORDS = 400;
/** Records per list call: small pages, so a pull has many runs to be killed in. */
const PAGE = 20;
/** Runs allowed to the end after the kills, before the harness says the engine did not recover. */
const FINAL_RUNS_MAX = 3;

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const child = workerBundle('test/crash/crashChild.ts', ['@napi-rs/keyring/keytar.js']);
let script = '';

/** What the harness saw, printed as one JSON line at the end. */
const tally = {
  seed: SEED,
  sync: {
    trials: 0,
    runs: 0,
    kills: 0,
    finished_before_kill: 0,
    trashed: 0,
    created: 0,
    edited: 0,
    wall_s: 0,
  },
  replay: {
    trials: 0,
    runs: 0,
    kills: 0,
    finished_before_kill: 0,
    operations: 0,
    answers_dropped: 0,
    trashed: 0,
    created: 0,
    edited: 0,
    wall_s: 0,
  },
  backup: {
    trials: 0,
    runs: 0,
    kills: 0,
    finished_before_kill: 0,
    killed_in: {} as Record<string, number>,
    archive_bytes: 0,
    wall_s: 0,
  },
};

/** `work` lines of a whole run per job (counted by the last run to the end): kills are drawn there. */
const workOfRun = { sync: 0, replay: 0, backup: 0 };

beforeAll(async () => {
  script = await child.script();
}, 120_000);

afterAll(() => {
  child.remove();
  console.log(`crash harness: ${JSON.stringify(tally)}`);
});

interface Trial {
  emulator: RunningEmulator;
  service: Service;
  modules: ModuleOnServer[];
  base: Omit<ChildJob, 'role'>;
  dataDir: string;
}

async function startTrial(records: number, seed: number): Promise<Trial> {
  // A limit no trial reaches: the client follows the RateLimit headers it is sent.
  const emulator = await testEmulator({ records, seed, rateLimit: { calls: 1_000_000 } });
  const token = grantToken(emulator, { lifetimeMs: 24 * 3_600_000 });
  const dataDir = tempDir('portaldesk-crash-');
  const modules = emulator.portals.flatMap((portalId) =>
    (
      emulator.state.db
        .prepare(
          "SELECT api_name FROM modules WHERE portal_id = ? AND is_default = 0 AND state = 'active'",
        )
        .pluck()
        .all(Number(portalId)) as string[]
    ).map((module) => ({ portalId, module })),
  );
  return {
    emulator,
    service: { base: emulator.dcs.us!.api, token },
    modules,
    dataDir,
    base: { dataDir, profile: emulatorServiceProfile(emulator), dc: 'us', token, pageSize: PAGE },
  };
}

function faults(trial: Trial, rules: unknown[]): void {
  trial.emulator.state.faults.set(rules.map((rule) => FaultRule.parse(rule)));
}

/** The other client's changes: the faults are meant for the client under test only. */
async function whileDown(
  trial: Trial,
  random: Random,
  protect: (record: ServerRecord) => boolean,
  creates: Map<string, number>,
  serial: { next: number },
  counts: { trashed: number; created: number; edited: number },
): Promise<void> {
  const rules = trial.emulator.state.faults.list();
  trial.emulator.state.faults.set([]);
  try {
    const changed = await changeWhileDown(
      trial.service,
      trial.modules,
      random,
      protect,
      creates,
      serial,
    );
    counts.trashed += changed.trashed;
    counts.created += changed.created;
    counts.edited += changed.edited;
  } finally {
    trial.emulator.state.faults.set(rules);
  }
}

type Counts = {
  runs: number;
  kills: number;
  finished_before_kill: number;
  /** Kills per the last `work` line before them, where a job counts them. */
  killed_in?: Record<string, number>;
};

function kindOf(job: ChildJob): 'sync' | 'replay' | 'backup' {
  return job.role === 'replay' || job.role === 'backup' ? job.role : 'sync';
}

/**
 * Kills runs of `job` at random `work` lines, KILLS.min to KILLS.max times, with `whileDown` after
 * each kill; stops when a run reaches its end before its kill point. Each kill point is drawn
 * from the work the job has left: a whole run's (as the last run to the end counted it, from the
 * job's start) less what the earlier kills of this trial let pass.
 */
async function killAtRandomPoints(
  job: ChildJob,
  random: Random,
  counts: Counts,
  whileDown: () => Promise<void>,
): Promise<number> {
  const kind = kindOf(job);
  let passed = 0;
  for (let k = random.int(KILLS.min, KILLS.max); k > 0; k--) {
    const killAfter = random.int(1, Math.max(2, workOfRun[kind] - passed));
    const done = await runChild(script, job, killAfter);
    counts.runs++;
    if (!done.killed) {
      expect(done.exitCode, done.stderr).toBe(0);
      counts.finished_before_kill++;
      workOfRun[kind] = passed + done.work;
      return passed;
    }
    counts.kills++;
    if (counts.killed_in && done.lastWork) {
      counts.killed_in[done.lastWork] = (counts.killed_in[done.lastWork] ?? 0) + 1;
    }
    passed += killAfter;
    await whileDown();
  }
  return passed;
}

/**
 * Runs the job to its end, again if it ends short of `done` (a failure it reported). `passed`:
 * work its killed runs let pass, so the first run to the end tells a whole run's length.
 */
async function runToEnd(job: ChildJob, counts: Counts, passed = 0): Promise<ChildRun> {
  for (let attempt = 1; ; attempt++) {
    const done = await runChild(script, job, null);
    counts.runs++;
    expect(done.exitCode, done.stderr).toBe(0);
    if (attempt === 1 && job.role !== 'queue') workOfRun[kindOf(job)] = passed + done.work;
    if (done.result?.state === 'done' || attempt === FINAL_RUNS_MAX) return done;
  }
}

function mirrorRows(trial: Trial, portalId: string, module: string): MirrorRow[] {
  const db = new Database(path.join(trial.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT r.id, r.name, r.description, r.status_id, r.last_updated_time, r.custom
         FROM records r JOIN modules m ON m.module_key = r.module_key
         WHERE r.portal_id = ? AND m.api_name = ? AND r.trashed_time IS NULL AND r.local_only = 0`,
      )
      .all(portalId, module) as MirrorRow[];
  } finally {
    db.close();
  }
}

async function serverRecords(trial: Trial): Promise<Map<string, ServerRecord[]>> {
  const records = new Map<string, ServerRecord[]>();
  for (const at of trial.modules) {
    records.set(`${at.portalId}/${at.module}`, await listRecords(trial.service, at));
  }
  return records;
}

/** The mirror holds exactly the server's records, or the ways it does not. */
async function expectMirrorEqualsServer(trial: Trial, label: string): Promise<void> {
  const server = await serverRecords(trial);
  for (const at of trial.modules) {
    const differences = mirrorDifferences(
      server.get(`${at.portalId}/${at.module}`)!,
      mirrorRows(trial, at.portalId, at.module),
    );
    expect(differences, `${label}: ${at.portalId}/${at.module}`).toEqual([]);
  }
}

describe('the crash harness', () => {
  it('full syncs killed at random points, with records trashed, created and edited while the client is down, end done with the mirror equal to the server', async () => {
    const began = performance.now();
    for (let t = 0; t < SYNC_TRIALS; t++) {
      const seed = SEED * 100 + t;
      const random = new Random(seed);
      const trial = await startTrial(SYNC_RECORDS, seed);
      const counts = tally.sync;
      counts.trials++;
      faults(trial, [
        { path: '/entities(/20)?$', method: 'GET', error500: 0.03, reset: 0.02, latencyMs: 1 },
      ]);
      const serial = { next: seed * 1000 };
      const job: ChildJob = { ...trial.base, role: 'sync' };
      const passed = await killAtRandomPoints(job, random, counts, () =>
        whileDown(trial, random, () => false, new Map(), serial, counts),
      );
      faults(trial, []);
      const last = await runToEnd(job, counts, passed);
      expect(last.result, `sync trial seed ${seed}`).toMatchObject({ state: 'done' });
      await expectMirrorEqualsServer(trial, `sync trial seed ${seed}`);
      await trial.emulator.close();
    }
    tally.sync.wall_s = Math.round((performance.now() - began) / 1000);
  }, 600_000);

  it('backups killed at random points (asked, generating, downloading, verifying) end with one verified file equal to the service archive, and nothing half-written', async () => {
    const began = performance.now();
    for (let t = 0; t < BACKUP_TRIALS; t++) {
      const seed = SEED * 100 + 80 + t;
      const random = new Random(seed);
      const trial = await startTrial(BACKUP_RECORDS, seed);
      const counts = tally.backup;
      counts.trials++;
      const synced = await runToEnd({ ...trial.base, role: 'sync' }, counts);
      expect(synced.result).toMatchObject({ state: 'done' });
      const portalId = trial.emulator.portals[0]!;
      const job: ChildJob = {
        ...trial.base,
        role: 'backup',
        backup: {
          portalId,
          accessCode: `crash harness ${seed}`,
          adminSecret: trial.emulator.adminSecret,
          apiBase: trial.service.base,
        },
      };
      const passed = await killAtRandomPoints(job, random, counts, async () => undefined);
      const last = await runToEnd(job, counts, passed);
      expect(last.result, `backup trial seed ${seed}: ${last.stderr}`).toMatchObject({
        state: 'done',
      });
      // One export on the service (the 24-hour reuse), one file here, byte for byte its archive.
      const exports = trial.emulator.state.db
        .prepare('SELECT id, download_key FROM exports')
        .all() as { id: number; download_key: string }[];
      expect(exports, `backup trial seed ${seed}`).toHaveLength(1);
      const served = Buffer.from(
        await (
          await fetch(`${trial.service.base}/__downloads/${exports[0]!.download_key}.zip`)
        ).arrayBuffer(),
      );
      counts.archive_bytes = served.length;
      const files = backupFiles(trial.dataDir);
      expect(files, `backup trial seed ${seed}`).toHaveLength(1);
      expect(files[0]!, `backup trial seed ${seed}`).toMatch(
        new RegExp(`^${portalId}/\\d{8}T\\d{6}Z-${exports[0]!.id}\\.zip$`),
      );
      expect(
        createHash('sha256')
          .update(readFileSync(path.join(trial.dataDir, 'backups', files[0]!)))
          .digest('hex'),
      ).toBe(createHash('sha256').update(served).digest('hex'));
      const row = backupRow(trial);
      expect(row, `backup trial seed ${seed}`).toMatchObject({ stage: 'ready', file: files[0] });
      expect(row.sha256).toBe(createHash('sha256').update(served).digest('hex'));
      await trial.emulator.close();
    }
    tally.backup.wall_s = Math.round((performance.now() - began) / 1000);
  }, 600_000);

  it('outbox replays killed at random points, with answers of applied writes dropped, deliver every operation exactly once', async () => {
    const began = performance.now();
    for (let t = 0; t < REPLAY_TRIALS; t++) {
      const seed = SEED * 100 + 50 + t;
      const random = new Random(seed);
      const trial = await startTrial(REPLAY_RECORDS, seed);
      const counts = tally.replay;
      counts.trials++;
      const first = await runToEnd({ ...trial.base, role: 'sync' }, counts);
      expect(first.result).toMatchObject({ state: 'done' });

      const ops = await planOps(trial, random, seed);
      counts.operations += ops.length;
      await runChild(script, { ...trial.base, role: 'queue', ops }, null).then((queued) =>
        expect(queued.result, queued.stderr).toMatchObject({ state: 'done' }),
      );
      const protect = new Set(ops.flatMap((op) => (op.kind === 'create' ? [] : [op.recordId])));
      const queuedNames = new Set(
        ops.flatMap((op) => (op.kind === 'create' ? [op.values.name] : [])),
      );
      const ownCreates = new Map<string, number>();
      const serial = { next: seed * 1000 };
      faults(trial, [
        { path: '^/api/v3/portal/', method: 'PATCH', dropAnswer: 0.3, reset: 0.05 },
        { path: '^/api/v3/portal/', method: 'POST', dropAnswer: 0.3, reset: 0.05 },
        { path: '/entities(/20)?$', method: 'GET', error500: 0.03 },
      ]);
      const dropped = countDropped(trial);
      const job: ChildJob = { ...trial.base, role: 'replay' };
      const queuedHere = (record: ServerRecord) =>
        protect.has(record.id) || queuedNames.has(record.name);
      const passed = await killAtRandomPoints(job, random, counts, () =>
        whileDown(trial, random, queuedHere, ownCreates, serial, counts),
      );
      const replayed = await runToEnd(job, counts, passed);
      expect(replayed.result, `replay trial seed ${seed}`).toMatchObject({ state: 'done' });
      counts.answers_dropped += dropped.stop();
      faults(trial, []);
      const synced = await runToEnd({ ...trial.base, role: 'sync' }, counts);
      expect(synced.result, `replay trial seed ${seed}`).toMatchObject({ state: 'done' });

      const applied = Object.fromEntries(trial.emulator.state.stats.writesApplied);
      for (const [key, own] of ownCreates) applied[key] = (applied[key] ?? 0) - own;
      const server = await serverRecords(trial);
      expect(
        deliveryProblems(ops, applied, { records: server, comments: commentsOf(trial) }),
        `replay trial seed ${seed}`,
      ).toEqual([]);
      await expectMirrorEqualsServer(trial, `replay trial seed ${seed}`);
      await trial.emulator.close();
    }
    tally.replay.wall_s = Math.round((performance.now() - began) / 1000);
  }, 600_000);
});

/** Every file under a data directory's backups folder (a `.part` among them would fail). */
function backupFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'backups');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
}

/** The ready backup's row, read from the store the child left. */
function backupRow(trial: Trial): { stage: string; file: string; sha256: string } {
  const db = new Database(path.join(trial.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare("SELECT stage, file, sha256 FROM backups WHERE stage = 'ready'").get() as {
      stage: string;
      file: string;
      sha256: string;
    };
  } finally {
    db.close();
  }
}

/** Edits, creates and comments on distinct records, as a user would queue them offline. */
async function planOps(trial: Trial, random: Random, seed: number): Promise<PlannedOp[]> {
  const ops: PlannedOp[] = [];
  const mirror = new Database(path.join(trial.dataDir, DATABASE_FILE), { readonly: true });
  const moduleId = (portalId: string, module: string) =>
    mirror
      .prepare('SELECT id FROM modules WHERE portal_id = ? AND api_name = ?')
      .pluck()
      .get(portalId, module) as string;
  try {
    const records = await serverRecords(trial);
    const candidates = trial.modules.flatMap((at) =>
      records.get(`${at.portalId}/${at.module}`)!.map((record) => ({ at, record })),
    );
    const chosen = random.pick(candidates, 9);
    chosen.slice(0, 5).forEach(({ at, record }, i) =>
      ops.push({
        kind: 'edit',
        module: at.module,
        portalId: at.portalId,
        recordId: record.id,
        changes: { name: `Edited offline ${seed}-${i}`, description: `Queued while away ${i}` },
      }),
    );
    chosen.slice(5).forEach(({ at, record }, i) =>
      ops.push({
        kind: 'comment',
        module: at.module,
        portalId: at.portalId,
        recordId: record.id,
        content: `Comment queued offline ${seed}-${i}`,
      }),
    );
    for (const at of random.pick(trial.modules, 3)) {
      const n = seed * 1000 + 900 + ops.length;
      ops.push({
        kind: 'create',
        module: at.module,
        portalId: at.portalId,
        moduleId: moduleId(at.portalId, at.module),
        values: { name: `Created offline ${n}`, ...MANDATORY[at.module]!(n) },
      });
    }
  } finally {
    mirror.close();
  }
  return random.pick(ops, ops.length) satisfies QueuedOp[];
}

/** Comment contents per `portalId/recordId`, from the emulator's own tables. */
function commentsOf(trial: Trial): Map<string, string[]> {
  const rows = trial.emulator.state.db
    .prepare(
      `SELECT m.portal_id AS portalId, c.entity_id AS recordId, c.content
       FROM comments c JOIN entities e ON e.id = c.entity_id JOIN modules m ON m.id = e.module_id`,
    )
    .all() as { portalId: number; recordId: number; content: string }[];
  const comments = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${row.portalId}/${row.recordId}`;
    comments.set(key, [...(comments.get(key) ?? []), row.content]);
  }
  return comments;
}

/** Counts the answers the emulator's faults dropped after applying the write, until stopped. */
function countDropped(trial: Trial): { stop(): number } {
  const faultsOf = trial.emulator.state.faults;
  const decide = faultsOf.decide.bind(faultsOf);
  let dropped = 0;
  faultsOf.decide = (method, at) => {
    const decision = decide(method, at);
    if (decision.kind === 'dropAnswer') dropped++;
    return decision;
  };
  return {
    stop: () => {
      faultsOf.decide = decide;
      return dropped;
    },
  };
}
