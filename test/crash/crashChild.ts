/**
 * The crash harness's child process (crash.test.ts): the engine as the app wires it
 * (src/main/engine.ts: the store, the sync service, the outbox and the request scheduler), signed
 * in to the harness's emulator, doing one job until it is done or killed with SIGKILL.
 *
 * Bundled by Vite (test/support/workerBundle.ts) and started with `node`. Its job comes in the
 * environment variable CRASH_CHILD as JSON (ChildJob). It prints a line `work <what>` whenever the
 * engine reports records written to the mirror (sync progress) or a change of the outbox, which
 * the harness counts to choose where to kill, and a last line `result <json>` when it is done.
 */
import { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { ACCESS_CODE_SERVICE } from '../../src/main/backups/accessCodeKeychain';
import { MemorySecretStore } from '../../src/main/auth/memorySecretStore';
import { startEngine, type Engine } from '../../src/main/engine';
import type { AccountSource, SyncableAccount } from '../../src/main/sync/syncService';
import type { SyncResult } from '../../src/main/sync/syncTypes';
import type { SyncStatus } from '../../src/shared/ipc/areas/sync';
import type { BackupsOverview } from '../../src/shared/ipc/areas/backups';
import type { BackupJob, ChildJob, ChildResult, QueuedOp } from './childJob';

const internal = { transport: 'internal', trusted: true, description: 'crash harness' } as const;

/** Phases of a module's sync that write records to the mirror. */
const WRITING_PHASES: ReadonlySet<string> = new Set(['records', 'incremental', 'reconcile']);

/** Ours: syncs the replay job starts before it gives up on an outbox that does not empty. */
const REPLAY_SYNCS_MAX = 20;

function accountSource(job: ChildJob): AccountSource {
  const account: SyncableAccount = {
    accountId: 'crash',
    profile: ServiceProfile.parse(job.profile),
    dataCenter: job.dc,
    // The harness mints a token that outlives the job; a refresh has nothing newer to give.
    tokens: { accessToken: async () => job.token, refresh: async () => job.token },
  };
  return { signedIn: () => [account], onSignedIn: () => () => true, onSignedOut: () => () => true };
}

async function call(engine: Engine, name: string, args?: unknown): Promise<unknown> {
  const outcome = await engine.dispatcher.dispatch(name, args, internal);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
  return outcome.value;
}

async function syncOnce(engine: Engine): Promise<SyncResult> {
  const [run] = engine.sync.start();
  return run!.done;
}

async function queue(engine: Engine, ops: readonly QueuedOp[]): Promise<void> {
  await call(engine, 'outbox.setWorkOffline', { on: true });
  for (const op of ops) {
    if (op.kind === 'edit') {
      await call(engine, 'outbox.edit', {
        portalId: op.portalId,
        recordId: op.recordId,
        changes: op.changes,
      });
    } else if (op.kind === 'create') {
      await call(engine, 'outbox.create', {
        portalId: op.portalId,
        moduleId: op.moduleId,
        values: op.values,
      });
    } else {
      await call(engine, 'outbox.comment', {
        action: 'add',
        portalId: op.portalId,
        recordId: op.recordId,
        content: op.content,
      });
    }
  }
}

/** Online again: the outbox replays, and syncs (which wait behind it) run until it is empty. */
async function replay(engine: Engine): Promise<{ syncs: number; left: number }> {
  await call(engine, 'outbox.setWorkOffline', { on: false });
  const left = async () => ((await call(engine, 'outbox.status')) as { total: number }).total;
  for (let syncs = 1; syncs <= REPLAY_SYNCS_MAX; syncs++) {
    const result = await syncOnce(engine);
    const remaining = await left();
    if (remaining === 0 && result.state === 'done') return { syncs, left: 0 };
  }
  return { syncs: REPLAY_SYNCS_MAX, left: await left() };
}

/** Ours: the piece size and pace of a backup download in the child, so kills land inside it. */
const DOWNLOAD_PIECE = 4096;
const DOWNLOAD_PACE_MS = 3;

/**
 * The backups' fetch in the child: the body comes in small pieces at a pace, each printed as a
 * `work download` line (a kill point), the way a slow network hands a download over.
 */
function pacedFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  return fetch(url, init).then((response) => {
    if (!response.body) return response;
    const reader = response.body.getReader();
    let held: Uint8Array = new Uint8Array(0);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (held.length === 0) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          held = value;
        }
        await new Promise((resolve) => setTimeout(resolve, DOWNLOAD_PACE_MS));
        controller.enqueue(held.subarray(0, DOWNLOAD_PIECE));
        held = held.subarray(DOWNLOAD_PIECE);
        process.stdout.write('work download\n');
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  });
}

/** Goes on with what a killed run left (the engine's start), or starts a backup; until ready. */
async function backUp(engine: Engine, job: BackupJob): Promise<ChildResult> {
  const ready = async () =>
    ((await call(engine, 'backups.overview')) as BackupsOverview).backups.find(
      (backup) => backup.stage === 'ready',
    );
  await engine.backups.start();
  await engine.backups.idle();
  if (!(await ready())) {
    await call(engine, 'backups.start', {
      portalIds: [job.portalId],
      accessCode: job.accessCode,
      attachmentNeeded: false,
      keepCode: false,
    });
    await engine.backups.idle();
  }
  const backup = await ready();
  const last = ((await call(engine, 'backups.overview')) as BackupsOverview).backups[0];
  return {
    role: 'backup',
    state: backup ? 'done' : 'failed',
    message: backup ? null : (last?.problem ?? 'no backup'),
  };
}

async function main(): Promise<void> {
  const job = JSON.parse(process.env.CRASH_CHILD ?? '') as ChildJob;
  const secrets = new MemorySecretStore();
  const backupJob = job.role === 'backup' ? job.backup : null;
  // The code kept in the keychain, as the admin chose: a restarted engine verifies with it.
  if (backupJob) {
    await secrets.setPassword(
      ACCESS_CODE_SERVICE,
      `portal:${backupJob.portalId}`,
      backupJob.accessCode,
    );
  }
  const engine = startEngine({
    dataDir: job.dataDir,
    mode: 'web',
    version: '0.0.0-crash',
    autoSync: false,
    accounts: accountSource(job),
    secrets,
    backups: {
      // Started by backUp() below, after the events are listened to.
      autoStart: false,
      fetch: pacedFetch,
      // While the service generates: its clock moves on instead of the child waiting.
      sleep: async (ms) => {
        if (backupJob) {
          await fetch(`${backupJob.apiBase}/__emulator/clock/advance`, {
            method: 'POST',
            headers: {
              'X-Emulator-Admin': backupJob.adminSecret,
              'Content-Type': 'application/json',
            },
            body: JSON.stringify({ ms: Math.max(ms, 30_000) }),
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    },
    log: { warn: () => undefined, error: (message) => console.error(message) },
    sync: {
      engine: { pageSize: job.pageSize, commentBackfill: false, retryDelaysMs: [20, 50] },
      // The client's own waits before a retry, shortened: the harness injects failures.
      client: { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 20))) },
    },
    // Every status at once: the child reports each stored run of records as it happens.
    pushRates: {},
  });
  const stored = new Map<string, number>();
  let stage: string | null = null;
  engine.events.subscribe((event, payload) => {
    // A backup's kill points are its own: its stages and the pieces of its download.
    if (event === 'outbox.changed' && !backupJob) process.stdout.write('work outbox\n');
    if (event === 'backups.changed') {
      // Each new stage of a backup is a kill point too (asked, generating, verifying...).
      const backup = (payload as { backup: { stage: string } | null }).backup;
      if (backup && backup.stage !== stage) {
        stage = backup.stage;
        process.stdout.write(`work ${stage}\n`);
      }
    }
    if (event !== 'sync.status') return;
    // A line per run of records written: the points a kill is worth landing between.
    for (const progress of (payload as SyncStatus).progress) {
      if (progress.moduleId === null || !WRITING_PHASES.has(progress.phase)) continue;
      const key = `${progress.runId}/${progress.portalId}/${progress.moduleId}/${progress.phase}`;
      if (progress.done > (stored.get(key) ?? 0)) {
        stored.set(key, progress.done);
        process.stdout.write(`work ${progress.phase}\n`);
      }
    }
  });
  let result: ChildResult;
  if (job.role === 'sync') {
    const run = await syncOnce(engine);
    result = { role: 'sync', state: run.state, message: run.message };
  } else if (job.role === 'backup') {
    result = await backUp(engine, job.backup);
  } else if (job.role === 'queue') {
    await queue(engine, job.ops);
    result = { role: 'queue', state: 'done', message: null };
  } else {
    const { syncs, left } = await replay(engine);
    result = {
      role: 'replay',
      state: left === 0 ? 'done' : 'failed',
      message: left === 0 ? null : `${left} operations left after ${syncs} syncs`,
    };
  }
  await engine.sync.idle();
  engine.close();
  process.stdout.write(`result ${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
