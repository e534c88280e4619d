/**
 * The credentials an address carries, and the address as the router may show or store it. Many
 * webhook addresses are their own credential, in the path: Slack's
 * `hooks.slack.com/services/T…/B…/<token>`, Discord's `/api/webhooks/<id>/<token>`, a Teams
 * connector's `….webhook.office.com/webhookb2/<ids>/IncomingWebhook/<hex>/<id>`, and the
 * `/hooks/<long token>` of many others: anyone who reads them in an event log, a screenshot or
 * the admin API can post as the integration. The scheme, the host and the segments that name
 * what the address is stay readable; the credential segments are masked. Pure; shared by the
 * engine (what it records) and the Event router view (what it lists).
 */
import { isSecretName, REDACTED } from './secretName';

/** Ours: a path segment shorter than this is never taken for a credential by its look alone. */
export const PATH_TOKEN_MIN_CHARS = 16;
/**
 * Ours: how often a credential's characters at least switch between lowercase, uppercase and
 * digits. A random token switches about every other character; words (`IncomingWebhook`,
 * `order-events-2024`) and numeric ids hardly do. A long camelCase name may be masked too: that
 * costs a detail when debugging, where a missed token would leak.
 */
export const PATH_TOKEN_MIN_SHIFTS = 3;
const TOKEN_CHARS = /^[A-Za-z0-9._~+=@-]+$/;

function charKind(c: string): number {
  if (c >= 'a' && c <= 'z') return 0;
  if (c >= 'A' && c <= 'Z') return 1;
  if (c >= '0' && c <= '9') return 2;
  return -1;
}

/**
 * Whether one (decoded) path segment looks like a credential: long, of token characters, and
 * random (or hex with letters and digits: a hex token's few letters may stand together).
 */
export function looksLikeToken(segment: string): boolean {
  if (segment.length < PATH_TOKEN_MIN_CHARS || !TOKEN_CHARS.test(segment)) return false;
  if (/^[0-9a-f]+$/i.test(segment) && /[0-9]/.test(segment) && /[a-f]/i.test(segment)) {
    return true;
  }
  let shifts = 0;
  let last = -1;
  for (const c of segment) {
    const kind = charKind(c);
    if (kind < 0) continue;
    if (last >= 0 && kind !== last) shifts++;
    last = kind;
  }
  return shifts >= PATH_TOKEN_MIN_SHIFTS;
}

const hostIs = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * The segments (indexes into `segments`, the path split at `/` after its leading one) that the
 * service of `host` defines as the credential, whatever they look like.
 */
function knownSecretSegments(host: string, segments: readonly string[]): number[] {
  const from = (start: number) =>
    segments.map((_, index) => index).filter((index) => index >= start);
  if (host === 'hooks.slack.com') {
    // services/<team>/<channel>/<token>, triggers/<team>/<id>/<token>, workflows/<team>/<app>/…
    return from(3);
  }
  if (hostIs(host, 'discord.com') || hostIs(host, 'discordapp.com')) {
    // api[/v10]/webhooks/<id>/<token>[/slack|/github]
    const at = segments.indexOf('webhooks');
    return at >= 0 && at + 2 < segments.length ? [at + 2] : [];
  }
  if (
    hostIs(host, 'webhook.office.com') ||
    host === 'outlook.office.com' ||
    host === 'outlook.office365.com'
  ) {
    // webhook[b2]/<group>@<tenant>/IncomingWebhook/<hex>/<owner>[/<signature>]: all but the words
    if (!/^webhook/i.test(segments[0] ?? '')) return [];
    return from(1).filter((index) => segments[index] !== 'IncomingWebhook');
  }
  return [];
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The indexes of `segments` (an http(s) address's path, split) that hold a credential. */
function secretSegments(parsed: URL, segments: readonly string[]): Set<number> {
  const secret = new Set<number>();
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return secret;
  for (const index of knownSecretSegments(parsed.hostname.toLowerCase(), segments)) {
    secret.add(index);
  }
  segments.forEach((segment, index) => {
    if (looksLikeToken(decoded(segment))) secret.add(index);
  });
  for (const index of secret) if (segments[index] === '') secret.delete(index);
  return secret;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

const pathSegments = (parsed: URL) => parsed.pathname.split('/').slice(1);

/**
 * The credentials an http(s) address holds in its path, each as the address writes it
 * (percent-encoded) and decoded: for replacing them wherever else a record holds them.
 */
export function pathSecrets(url: string): string[] {
  const parsed = parse(url);
  if (!parsed) return [];
  const segments = pathSegments(parsed);
  const secrets = new Set<string>();
  for (const index of secretSegments(parsed, segments)) {
    secrets.add(segments[index]!);
    secrets.add(decoded(segments[index]!));
  }
  return [...secrets];
}

/**
 * The address with its user info (`https://user:password@host`: credentials by the URL's own
 * syntax), its secret query parameters' values and its path's credential segments replaced; as
 * it was when it holds none. Applied again, it changes nothing more.
 */
export function redactUrl(url: string): string {
  const parsed = parse(url);
  if (!parsed) return url;
  const entries = [...parsed.searchParams.entries()];
  const userInfo = parsed.username !== '' || parsed.password !== '';
  const secretParams = entries.some(([name]) => isSecretName(name));
  const segments = pathSegments(parsed);
  const secretPath = secretSegments(parsed, segments);
  if (!userInfo && !secretParams && secretPath.size === 0) return url;
  if (userInfo) {
    parsed.username = REDACTED;
    parsed.password = '';
  }
  if (secretParams) {
    // Rebuilt in order, so the recorded address differs from the sent one only in those values.
    parsed.search = new URLSearchParams(
      entries.map(([name, value]): [string, string] => [
        name,
        isSecretName(name) ? REDACTED : value,
      ]),
    ).toString();
  }
  if (secretPath.size > 0) {
    parsed.pathname = `/${segments.map((s, i) => (secretPath.has(i) ? REDACTED : s)).join('/')}`;
  }
  return parsed.toString();
}
