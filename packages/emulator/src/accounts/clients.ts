import { timingSafeEqual } from 'node:crypto';
import { API_ONLY_DATA_CENTERS } from '../config';
import type { EmulatorState } from '../state';

/**
 * Registers (or updates) the demo client. "Multi-DC support must be enabled for the client to
 * generate tokens in any data center; each data center has its own client secret": with
 * --multi-dc the secret of data center X is `<secret>-X` (the first keeps the plain secret).
 */
export function registerDemoClient(state: EmulatorState): Record<string, string> {
  const { client, dcs, multiDc } = state.config;
  const secrets: Record<string, string> = {};
  for (const [index, dc] of dcs.entries()) {
    secrets[dc] = multiDc && index > 0 ? `${client.clientSecret}-${dc}` : client.clientSecret;
  }
  state.db
    .prepare(
      `INSERT INTO oauth_clients (client_id, name, redirect_uri, secrets, multi_dc)
       VALUES (?, 'PortalDesk', ?, ?, ?)
       ON CONFLICT (client_id) DO UPDATE SET redirect_uri = excluded.redirect_uri,
         secrets = excluded.secrets, multi_dc = excluded.multi_dc`,
    )
    .run(client.clientId, client.redirectUri, JSON.stringify(secrets), multiDc ? 1 : 0);
  return secrets;
}

export interface OAuthClient {
  clientId: string;
  name: string;
  redirectUri: string;
  /** Secret per data center; one shared secret unless Multi-DC. */
  secrets: Record<string, string>;
  multiDc: boolean;
}

interface ClientRow {
  client_id: string;
  name: string;
  redirect_uri: string;
  secrets: string;
  multi_dc: number;
}

export function findClient(state: EmulatorState, clientId: string | null): OAuthClient | null {
  if (!clientId) return null;
  const row = state.db
    .prepare(
      'SELECT client_id, name, redirect_uri, secrets, multi_dc FROM oauth_clients WHERE client_id = ?',
    )
    .get(clientId) as ClientRow | undefined;
  if (!row) return null;
  return {
    clientId: row.client_id,
    name: row.name,
    redirectUri: row.redirect_uri,
    secrets: JSON.parse(row.secrets) as Record<string, string>,
    multiDc: row.multi_dc === 1,
  };
}

/** The data center a client is registered in: the first one served that has an accounts server. */
export function homeDataCenter(state: EmulatorState): string {
  return state.config.dcs.find((dc) => !API_ONLY_DATA_CENTERS.has(dc)) as string;
}

/**
 * Whether `secret` lets the client generate tokens at `dc`'s accounts server. "Multi-DC support
 * must be enabled for the client to generate tokens in any data center": without it only the
 * home data center accepts the client; with it each data center checks its own secret.
 */
export function clientMayGenerateAt(
  client: OAuthClient,
  dc: string,
  homeDc: string,
  secret: string | null,
): boolean {
  if (!client.multiDc && dc !== homeDc) return false;
  const expected = client.secrets[dc];
  return expected !== undefined && secret !== null && safeEqual(secret, expected);
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
