import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import {
  startEmulator,
  type EmulatorOptions,
  type RunningEmulator,
} from '@portaldesk/emulator/index';

export type { RunningEmulator };

const running: RunningEmulator[] = [];

afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.close();
});

/** An emulator on free ports with a small data set, closed after the current test. */
export async function testEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator({ records: 200, log: () => undefined, ...options });
  running.push(emulator);
  return emulator;
}

/** Every scope the API knows, for tests that are not about scopes. */
export const ALL_SCOPES = ['PMS.portals.ALL', 'PMS.custom_fields.ALL', 'PMSFiles.files.ALL'];

/**
 * An access token for endpoint tests that are not about OAuth: written straight into the token
 * table, as the accounts server would after a code exchange.
 */
export function grantToken(
  emulator: RunningEmulator,
  options: { scopes?: string[]; email?: string; dc?: string; lifetimeMs?: number } = {},
): string {
  const { db, clock, config } = emulator.state;
  const email = options.email ?? emulator.user.email;
  const user = db.prepare('SELECT zpuid, dc FROM users WHERE email = ?').get(email) as
    { zpuid: string; dc: string } | undefined;
  if (!user) throw new Error(`No user ${email} in the emulator.`);
  const token = `1000.${randomBytes(16).toString('hex')}`;
  const now = clock.now();
  db.prepare(
    `INSERT INTO oauth_access_tokens (token, refresh_token, client_id, zpuid, dc, scopes, created_ms, expires_ms)
     VALUES (?, NULL, ?, ?, ?, ?, ?, ?)`,
  ).run(
    token,
    config.client.clientId,
    user.zpuid,
    options.dc ?? user.dc,
    (options.scopes ?? ALL_SCOPES).join(' '),
    now,
    now + (options.lifetimeMs ?? 3_600_000),
  );
  return token;
}

/** A small fetch wrapper: JSON in, status + headers + parsed JSON out. */
export async function api(
  base: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect replies loosely
): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON (a page or a file): the text is the body.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** An emulator, a token and a caller for routes under `/api/v3/portal/{first portal}`. */
export async function portalSession(options: { records?: number; scopes?: string[] } = {}) {
  const emulator = await testEmulator({ records: options.records ?? 40 });
  const token = grantToken(emulator, options.scopes ? { scopes: options.scopes } : {});
  const portal = emulator.portals[0]!;
  const call = (method: string, path: string, body?: unknown, as: string | undefined = token) =>
    api(emulator.dcs.us!.api, as, method, `/api/v3/portal/${portal}${path}`, body);
  return { emulator, token, portal, call };
}

/** The rows of these tables as one text, to show that a refused request changed nothing. */
export function snapshotTables(emulator: RunningEmulator, tables: readonly string[]): string {
  return JSON.stringify(
    tables.map((table) => emulator.state.db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()),
  );
}

/** A `filter=` query parameter. */
export const filterParam = (value: object) => `filter=${encodeURIComponent(JSON.stringify(value))}`;
