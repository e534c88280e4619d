/**
 * The built emulator (out/main/emulator.js) in a process of its own, for end-to-end tests that
 * sign the app in to "a service" and then look at, or change, the service's data behind the app's
 * back: started with `--json`, reached through its admin surface and its REST API.
 */
import { spawn } from 'node:child_process';
import type { FaultRuleInput } from '@portaldesk/emulator/faults';
import { emulatorServiceProfile } from '../../src/main/api/client/emulatorProfile';

/** The first line the emulator prints with `--json` (packages/emulator/README.md). */
export interface EmulatorFacts {
  dcs: Record<string, { api: string; accounts?: string }>;
  client_id: string;
  client_secret: string;
  client_secrets: Record<string, string>;
  redirect_uri: string;
  portals: string[];
  user: { email: string; password: string };
  admin_secret: string;
  comment_segment: string;
}

export interface RestReply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect replies loosely
  body: any;
}

/** REST v3 calls as one user, with an access token from the emulator's Self Client. */
export type RestCaller = (method: string, path: string, body?: unknown) => Promise<RestReply>;

export interface EmulatorProcess {
  facts: EmulatorFacts;
  /** The first data center's server (API and accounts share it). */
  api: string;
  /** The service profile JSON a user pastes into "Sign in to a service". */
  profileJson(id: string, name: string): string;
  /** A grant code as the developer console's Self Client issues it (valid 3 minutes). */
  selfClientCode(scopes: string, email?: string): Promise<string>;
  /** REST calls as the user with this address (the demo admin when left out). */
  restAs(email?: string): Promise<RestCaller>;
  /** Moves the emulator's clock forward (a backup generates in 2 emulated minutes). */
  advanceClock(ms: number): Promise<void>;
  /** Requests answered per endpoint key (`us PATCH /api/v3/portal/{portal_id}/… 1000…`). */
  requestsPerEndpoint(): Promise<Record<string, number>>;
  /** Replaces the injected faults (packages/emulator/src/faults.ts); `[]` removes them. */
  setFaults(faults: FaultRuleInput[]): Promise<void>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 15_000;
/** Every scope the REST checks need: records and their comments, read and write. */
const REST_SCOPES = 'PMS.portals.ALL,PMS.custom_fields.ALL';

export async function startEmulatorProcess(args: readonly string[]): Promise<EmulatorProcess> {
  const child = spawn(
    process.execPath,
    ['out/main/emulator.js', '--json', '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const facts = await new Promise<EmulatorFacts>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`The emulator printed no JSON line in time:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const newline = output.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(output.slice(0, newline)) as EmulatorFacts);
      } catch (error) {
        reject(new Error(`The emulator's first line is not JSON: ${output} (${String(error)})`));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The emulator exited with ${code} (is it built?):\n${output}`));
    });
  });
  const first = Object.values(facts.dcs)[0]!;
  const api = first.api;
  const accounts = first.accounts ?? first.api;
  const admin = { 'X-Emulator-Admin': facts.admin_secret };

  const selfClientCode = async (scopes: string, email?: string) => {
    const reply = await json(`${api}/__emulator/self-client`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopes, ...(email ? { email } : {}) }),
    });
    return String(reply.code);
  };

  return {
    facts,
    api,
    profileJson: (id, name) => JSON.stringify(emulatorServiceProfile(facts, { id, name })),
    selfClientCode,
    async restAs(email) {
      const issued = await json(`${accounts}/oauth/v2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          code: await selfClientCode(REST_SCOPES, email),
          client_id: facts.client_id,
          client_secret: facts.client_secret,
          grant_type: 'authorization_code',
        }),
      });
      const token = String(issued.access_token);
      return async (method, path, body) => {
        const response = await fetch(`${api}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
      };
    },
    async advanceClock(ms) {
      await json(`${api}/__emulator/clock/advance`, {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
    },
    async requestsPerEndpoint() {
      const stats = await json(`${api}/__emulator/stats`, { headers: admin });
      return (stats.requests as { per_endpoint: Record<string, number> }).per_endpoint;
    },
    async setFaults(faults) {
      await json(`${api}/__emulator/faults`, {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ faults }),
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function json(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok || 'error' in body) {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: HTTP ${response.status} ${JSON.stringify(body)}`,
    );
  }
  return body;
}
