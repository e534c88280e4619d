/**
 * Which redirect URIs PortalDesk can receive on (RFC 8252 7.3: a loopback IP literal, plain http).
 * The service requires the redirect URI to equal the registered one exactly, so the port cannot
 * be chosen at run time (RFC 8252's ephemeral port): it must be written in the URI.
 */
export interface LoopbackRedirect {
  /** Always 127.0.0.1: `localhost` may resolve to ::1 or elsewhere (RFC 8252 8.3). */
  host: '127.0.0.1';
  port: number;
  /** The path the browser comes back to, e.g. `/callback`. */
  path: string;
}

export type LoopbackRedirectCheck =
  { ok: true; redirect: LoopbackRedirect } | { ok: false; error: string };

const EXAMPLE = 'http://127.0.0.1:53682/callback';

export function parseLoopbackRedirectUri(uri: string): LoopbackRedirectCheck {
  const fail = (why: string): LoopbackRedirectCheck => ({
    ok: false,
    error: `The redirect URI "${uri}" cannot be used: ${why}. Register a loopback address with a fixed port for this client, for example ${EXAMPLE}, and enter exactly that URI here.`,
  });
  let url: URL;
  try {
    url = new URL(uri.trim());
  } catch {
    return fail('it is not a URL');
  }
  if (url.protocol !== 'http:') {
    return fail('PortalDesk receives the answer on this computer over plain http (RFC 8252)');
  }
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
    return fail('it must point at this computer (127.0.0.1 or localhost)');
  }
  if (url.port === '') return fail('it has no port number');
  if (url.search !== '' || url.hash !== '') return fail('it must not carry a query or a fragment');
  if (url.username !== '' || url.password !== '') return fail('it must not carry a user name');
  return { ok: true, redirect: { host: '127.0.0.1', port: Number(url.port), path: url.pathname } };
}
