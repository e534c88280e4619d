/** An engine that mirrored an emulator's portal, for the backups tests; waits move the emulator's clock. */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { emulatorServiceProfile } from '../../../src/main/api/client/emulatorProfile';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import type { Engine, EngineOptions } from '../../../src/main/engine';
import type { AccountSource } from '../../../src/main/sync/syncService';
import type { BackupsOverview, BackupView } from '../../../src/shared/ipc/areas/backups';
import { testEngine } from '../../support/engine';
import { grantToken, testEmulator, type RunningEmulator } from '../../support/emulator';
import { tempDir } from '../../support/tempDir';

const internal = { transport: 'internal', trusted: true, description: 'test' } as const;
export const CODE = 'correct horse battery';

export async function call<T>(engine: Engine, name: string, args?: unknown): Promise<T> {
  const outcome = await engine.dispatcher.dispatch(name, args, internal);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value as T;
}

export async function refusal(engine: Engine, name: string, args?: unknown): Promise<string> {
  const outcome = await engine.dispatcher.dispatch(name, args, internal);
  if (outcome.ok) throw new Error(`${name} was not refused`);
  return outcome.error.message;
}

function accounts(emulator: RunningEmulator): AccountSource {
  let token = grantToken(emulator, { lifetimeMs: 30 * 86_400_000 });
  const account = {
    accountId: 'acc-1',
    profile: emulatorServiceProfile(emulator),
    dataCenter: 'us',
    tokens: {
      accessToken: async () => token,
      refresh: async () => (token = grantToken(emulator, { lifetimeMs: 30 * 86_400_000 })),
    },
  };
  return {
    signedIn: () => [account],
    onSignedIn: () => () => undefined,
    onSignedOut: () => () => undefined,
  };
}

/** An engine that mirrored the emulator's first portal; waits move the emulator's clock. */
export async function setup(
  options: { records?: number; emulator?: RunningEmulator; engine?: Partial<EngineOptions> } = {},
) {
  const emulator = options.emulator ?? (await testEmulator({ records: options.records ?? 40 }));
  const secrets = new MemorySecretStore();
  const dataDir = tempDir();
  const { backups: backupHooks, ...engineOptions } = options.engine ?? {};
  const start = (extra: Partial<EngineOptions> = {}) =>
    testEngine({
      dataDir,
      accounts: accounts(emulator),
      autoSync: false,
      secrets,
      pushRates: {},
      sync: {
        engine: { retryDelaysMs: [0, 0], commentBackfill: false },
        client: { sleep: async () => undefined },
      },
      backups: {
        sleep: async (ms) => {
          emulator.state.clock.advance(Math.max(ms, 1000));
          await new Promise((resolve) => setTimeout(resolve, 1));
        },
        ...backupHooks,
      },
      ...engineOptions,
      ...extra,
    });
  const engine = start();
  await call(engine, 'sync.start');
  await engine.sync.idle();
  const portalId = emulator.portals[0]!;
  return { emulator, engine, dataDir, secrets, portalId, start };
}

export const overview = (engine: Engine) => call<BackupsOverview>(engine, 'backups.overview');
export const sha256 = (file: string) =>
  createHash('sha256').update(readFileSync(file)).digest('hex');

export async function backUp(
  engine: Engine,
  portalId: string,
  extra: object = {},
): Promise<BackupView> {
  const { started } = await call<{ started: BackupView[] }>(engine, 'backups.start', {
    portalIds: [portalId],
    accessCode: CODE,
    attachmentNeeded: false,
    keepCode: false,
    ...extra,
  });
  await engine.backups.idle();
  const { backups } = await overview(engine);
  // A request the service answered with a backup this computer already has goes on as that one.
  return (
    backups.find((b) => b.id === started[0]!.id) ??
    backups.find((b) => b.portalId === portalId && b.reused)!
  );
}

/** Every file under the data directory's backups folder. */
export function filesUnder(dataDir: string): string[] {
  const root = path.join(dataDir, 'backups');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}
