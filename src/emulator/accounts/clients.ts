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
