/**
 * What the router records of a request or an answer keeps no secret. A target's Authorization,
 * API key or cookie is sent as configured, but every attempt and request-bin entry is stored in
 * the database and shown in the Event router view and the admin API, where it would outlive the
 * target, its rotation and any screenshot's discretion. So a header (or query parameter) whose
 * name says it is a credential keeps its name and loses its value. Pure.
 */
import { dictionary } from '@portaldesk/portal-api/json/dictionary';

/** What a secret value is replaced by: the header is still seen to have been sent. */
export const REDACTED = '[redacted]';

/** Named by HTTP as credentials. */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

/**
 * Ours: any name holding one of these (X-Auth-Token, X-Api-Key, api_key, Client-Secret,
 * X-Session-Id, password, X-Functions-Key…). A name-based rule may hide a harmless value
 * (Idempotency-Key), which costs a detail when debugging; missing a secret would leak it.
 */
const SECRET_WORD =
  /auth|token|secret|passw|cookie|session|credential|(?:^|[-_.])(?:api)?key(?:$|[-_.])|apikey/;

export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || SECRET_WORD.test(lower);
}

/** `Bearer abc` → `Bearer [redacted]`: the scheme is no secret and says what was sent. */
function redactValue(value: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9._~+-]*)\s+\S/.exec(value);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result = dictionary<string>();
  for (const [name, value] of Object.entries(headers)) {
    result[name] = isSecretName(name) ? redactValue(value) : value;
  }
  return result;
}

/** The address with its secret query parameters' values replaced; as it was when none are. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const entries = [...parsed.searchParams.entries()];
  if (!entries.some(([name]) => isSecretName(name))) return url;
  // Rebuilt in order, so the recorded address differs from the sent one only in those values.
  parsed.search = new URLSearchParams(
    entries.map(([name, value]): [string, string] => [name, isSecretName(name) ? REDACTED : value]),
  ).toString();
  return parsed.toString();
}

/** A recorded request (`{method, url, headers, body}`) as it may be stored and shown. */
export function redactRecordedRequest<T extends { url: string; headers: Record<string, string> }>(
  request: T,
): T {
  return { ...request, url: redactUrl(request.url), headers: redactHeaders(request.headers) };
}

/** A recorded answer: a target's Set-Cookie is its session, not ours to keep. */
export function redactRecordedResponse<T extends { headers: Record<string, string> }>(
  response: T,
): T {
  return { ...response, headers: redactHeaders(response.headers) };
}
