/**
 * What the router records of a request or an answer keeps no secret. A target's Authorization,
 * API key or cookie is sent as configured, but every attempt and request-bin entry is stored in
 * the database and shown in the Event router view and the admin API, where it would outlive the
 * target, its rotation and any screenshot's discretion. So a header (or query parameter) whose
 * name says it is a credential keeps its name and loses its value, an address loses its path's
 * credential segments (shared/routerSecrets/redactUrl.ts); and those values, wherever else they
 * appear (the address's own query string or user info under any name, another header, the body
 * when a header took it from the event's data, the target's answer echoing it, a failure's
 * words), are replaced too. Pure.
 */
import { dictionary } from '@portaldesk/portal-api/json/dictionary';
import type { TargetView } from '../../../shared/ipc/areas/router';
import { pathSecrets, redactUrl } from '../../../shared/routerSecrets/redactUrl';
import { isSecretName, REDACTED } from '../../../shared/routerSecrets/secretName';

export { isSecretName, REDACTED, redactUrl };

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

/**
 * Ours: the shortest secret value replaced wherever it appears. A shorter one is replaced only
 * under its secret name: replacing every "1" of a record because a key is "1" would leave nothing
 * to read, and a credential that short protects little.
 */
export const SECRET_VALUE_MIN_CHARS = 8;

/** The credential of a header's value: `Bearer abc` → `abc` (and the whole value). */
function headerCredentials(value: string): string[] {
  const scheme = /^[A-Za-z][A-Za-z0-9._~+-]*\s(.+)$/s.exec(value);
  return scheme ? [...new Set([value, scheme[1]!, scheme[1]!.trim()])] : [value];
}

/**
 * The values a request carries under secret names (its secret headers, parameters, user info) and
 * in its address's path (a Slack-style address whose token is a segment: shared/routerSecrets).
 */
export function requestSecrets(request: {
  url: string;
  headers: Readonly<Record<string, string>>;
}): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (isSecretName(name)) secrets.push(...headerCredentials(value));
  }
  try {
    const parsed = new URL(request.url);
    for (const [name, value] of parsed.searchParams) if (isSecretName(name)) secrets.push(value);
    for (const part of [parsed.username, parsed.password]) {
      if (part !== '') secrets.push(decodeURIComponent(part));
    }
    secrets.push(...pathSecrets(request.url));
  } catch {
    // Not an address: nothing in it is named.
  }
  return secrets;
}

/**
 * The secret values a target is configured with (its secret headers and parameters written as
 * they are, the user info of its address), for rows recorded before values were redacted, when
 * the sent request itself no longer names them. A value filled from the event's data
 * (`{{path}}`) is known only from the request it was sent in.
 */
export function configuredSecrets(target: TargetView): string[] {
  const literal = (value: string) => !value.includes('{{');
  const secrets = requestSecrets({
    url: target.url ?? 'sandbox://target',
    headers: Object.fromEntries(
      target.headers
        .filter((header) => isSecretName(header.name) && literal(header.value))
        .map((header) => [header.name, header.value]),
    ),
  });
  for (const param of target.query) {
    if (isSecretName(param.name) && literal(param.value)) secrets.push(param.value);
  }
  return secrets;
}

/**
 * The forms a value takes in what is recorded: as it is, in an address (percent-encoded, or as a
 * form encodes it), inside a JSON string.
 */
function writtenForms(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams([['', secret]]).toString().slice(1),
    JSON.stringify(secret).slice(1, -1),
  ];
}

/** What replaces secret values in recorded text: longest first, so no secret is left half. */
export function secretValues(secrets: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < SECRET_VALUE_MIN_CHARS || secret.includes(REDACTED)) continue;
    for (const form of writtenForms(secret)) forms.add(form);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every form of every secret value (`forms`: secretValues) replaced. */
export function redactValues(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * The forms of the secret values a recorded request holds (requestSecrets), with `known` ones
 * (configuredSecrets: a row recorded before values were redacted names them no more).
 */
export function recordedSecretForms(
  request: { url: string; headers: Readonly<Record<string, string>> },
  known: readonly string[] = [],
): string[] {
  return secretValues([...known, ...requestSecrets(request)]);
}

function redactHeaderValues(
  headers: Readonly<Record<string, string>>,
  forms: readonly string[],
): Record<string, string> {
  const result = redactHeaders(headers);
  if (forms.length === 0) return result;
  for (const name of Object.keys(result)) result[name] = redactValues(result[name]!, forms);
  return result;
}

/**
 * A recorded request (`{method, url, headers, body}`) or request-bin entry as it may be stored
 * and shown: what its secret names hold, and every form of those values (and of `forms`'
 * others: recordedSecretForms) wherever else it holds them.
 */
export function redactRecordedRequest<
  T extends { url: string; headers: Record<string, string>; body?: string | null },
>(request: T, forms: readonly string[] = recordedSecretForms(request)): T {
  const redacted: T = {
    ...request,
    url: redactValues(redactUrl(request.url), forms),
    headers: redactHeaderValues(request.headers, forms),
  };
  if (typeof request.body === 'string') redacted.body = redactValues(request.body, forms);
  return redacted;
}

/**
 * A recorded answer: a target's Set-Cookie is its session, not ours to keep, and an answer that
 * echoes the request (its headers, its address) echoes its secrets (`forms`: the request's,
 * recordedSecretForms).
 */
export function redactRecordedResponse<
  T extends { headers: Record<string, string>; body?: string | null },
>(response: T, forms: readonly string[] = []): T {
  const redacted: T = { ...response, headers: redactHeaderValues(response.headers, forms) };
  if (typeof response.body === 'string') redacted.body = redactValues(response.body, forms);
  return redacted;
}
