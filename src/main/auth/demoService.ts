/**
 * The built-in demo: the embedded emulator (the default service profile), started in-process on
 * 127.0.0.1 at the first "Try the demo portal" and closed with the engine. Its data lives in the
 * data directory (demo/), so the demo's records, edits and sign-in survive a restart; its ports
 * change every launch, so its profile is built from the running emulator, never stored. It
 * auto-approves, so the sign-in runs the real flow without a browser window.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_COMMENT_SEGMENT } from '@portaldesk/emulator/config';
import { startEmulator, type RunningEmulator } from '@portaldesk/emulator/index';
import type { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { emulatorServiceProfile } from '../api/client/emulatorProfile';
import { freeLoopbackPort } from '../http/freeLoopbackPort';
import { FileSecretStore } from './fileSecretStore';
import { MemorySecretStore } from './memorySecretStore';
import type { SecretStore } from './secretStore';

export const DEMO_PROFILE_ID = 'demo';
export const DEMO_PROFILE_NAME = 'PortalDesk demo portal';

/** The emulator's own demo client (packages/emulator/src/config.ts DEMO_CLIENT); nothing secret. */
const DEMO_CLIENT_ID = '1000.PORTALDESKDEMO';
const DEMO_CLIENT_SECRET = 'demo-client-secret-0b7f3c';
const DEMO_DATA_FILE = 'demo-portal.sqlite';
const DEMO_SECRETS_FILE = 'demo-secrets.json';

export interface DemoClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** A record of the demo service, changed as another member of its portal would. */
export interface DemoRecordEdit {
  portalId: string;
  /** The module's API name. */
  module: string;
  recordId: string;
  /** Record fields as a PATCH of the record takes them. */
  changes: Record<string, unknown>;
}

export interface DemoPortal {
  profile: ServiceProfile;
  client: DemoClient;
  /** The demo console's Self Client: a grant code for these comma-separated scopes. */
  selfClientCode(scopes: string): Promise<{ code: string; expiresInSec: number }>;
  /**
   * Someone else's edit (the emulator's admin record change): resolves with who made it; throws
   * with the service's words when it refuses.
   */
  changeRecordAsColleague(edit: DemoRecordEdit): Promise<{ changedBy: string }>;
}

export interface DemoServiceOptions {
  /** Folder for the demo's data and tokens; in memory (lost at exit) when undefined. */
  dir: string | undefined;
  /** Records of the demo's first two portals (the emulator's default when left out). */
  records?: number;
  log?: (message: string) => void;
}

export class DemoService {
  /** Tokens of demo accounts; see fileSecretStore.ts for why not the OS keychain. */
  readonly secrets: SecretStore;
  private starting: Promise<DemoPortal> | undefined;
  private emulator: RunningEmulator | undefined;
  private portal: DemoPortal | undefined;
  private closed = false;

  constructor(private readonly options: DemoServiceOptions) {
    this.secrets = options.dir
      ? new FileSecretStore(path.join(options.dir, DEMO_SECRETS_FILE))
      : new MemorySecretStore();
  }

  /** The running demo, if started. */
  get running(): boolean {
    return this.portal !== undefined;
  }

  /** The running demo's profile (its addresses change every launch). */
  get profile(): ServiceProfile | undefined {
    return this.portal?.profile;
  }

  /**
   * The demo's profile before it runs, for what does not depend on its addresses (scope
   * prefixes, data-center keys). Never used to reach it.
   */
  static readonly profileTemplate: ServiceProfile = emulatorServiceProfile(
    {
      dcs: { us: { api: 'http://127.0.0.1', accounts: 'http://127.0.0.1' } },
      commentSegment: DEFAULT_COMMENT_SEGMENT,
    },
    { id: DEMO_PROFILE_ID, name: DEMO_PROFILE_NAME },
  );

  /** The profile's accounts origin while running (for the external-URL allowlist). */
  accountsOrigins(): string[] {
    if (!this.emulator) return [];
    return Object.values(this.emulator.dcs).flatMap((dc) => (dc.accounts ? [dc.accounts] : []));
  }

  /** Starts the demo once; later calls get the same one. */
  start(): Promise<DemoPortal> {
    this.starting ??= this.launch().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async launch(): Promise<DemoPortal> {
    if (this.closed) throw new Error('PortalDesk is closing.');
    const redirectUri = `http://127.0.0.1:${await freeLoopbackPort()}/callback`;
    const data = this.options.dir ? path.join(this.options.dir, DEMO_DATA_FILE) : undefined;
    if (this.options.dir) mkdirSync(this.options.dir, { recursive: true });
    const options = {
      port: 0,
      host: '127.0.0.1',
      autoApprove: true,
      clientId: DEMO_CLIENT_ID,
      clientSecret: DEMO_CLIENT_SECRET,
      redirectUri,
      log: this.options.log ?? (() => undefined),
      ...(this.options.records !== undefined ? { records: this.options.records } : {}),
    };
    let emulator: RunningEmulator;
    try {
      emulator = await startEmulator({ ...options, ...(data ? { data } : {}) });
    } catch (error) {
      // A demo file from another emulator version is refused: the demo's data is disposable.
      if (!data || !existsSync(data)) throw error;
      this.options.log?.(
        `The demo portal's data could not be reopened and was reset: ${String(error)}`,
      );
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${data}${suffix}`, { force: true });
      emulator = await startEmulator({ ...options, data });
    }
    if (this.closed) {
      await emulator.close();
      throw new Error('PortalDesk is closing.');
    }
    this.emulator = emulator;
    const profile = emulatorServiceProfile(emulator, {
      id: DEMO_PROFILE_ID,
      name: DEMO_PROFILE_NAME,
    });
    const accounts = Object.values(emulator.dcs).find((dc) => dc.accounts)?.accounts as string;
    /** The emulator's admin surface: on 127.0.0.1, behind this launch's random secret. */
    const admin = async (route: string, body: unknown): Promise<Record<string, unknown>> => {
      const response = await fetch(`${accounts}/__emulator/${route}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Emulator-Admin': emulator.adminSecret },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as Record<string, unknown>;
      if (!response.ok) {
        throw new Error(
          typeof answer.message === 'string'
            ? answer.message
            : `The demo service answered HTTP ${response.status}.`,
        );
      }
      return answer;
    };
    this.portal = {
      profile,
      client: { clientId: DEMO_CLIENT_ID, clientSecret: DEMO_CLIENT_SECRET, redirectUri },
      selfClientCode: async (scopes) => {
        const body = await admin('self-client', {
          scopes,
          description: 'PortalDesk demo Self Client',
        });
        if (typeof body.code !== 'string') throw new Error('The demo console issued no code.');
        return {
          code: body.code,
          expiresInSec: typeof body.expires_in_sec === 'number' ? body.expires_in_sec : 180,
        };
      },
      changeRecordAsColleague: async (edit) => {
        const body = await admin('record-change', {
          portal_id: edit.portalId,
          module: edit.module,
          entity_id: edit.recordId,
          changes: edit.changes,
        });
        const by = body.changed_by as { name?: unknown } | undefined;
        return { changedBy: typeof by?.name === 'string' ? by.name : 'Another user' };
      },
    };
    return this.portal;
  }

  async close(): Promise<void> {
    this.closed = true;
    const emulator = this.emulator;
    this.emulator = undefined;
    this.portal = undefined;
    await emulator?.close();
  }
}
