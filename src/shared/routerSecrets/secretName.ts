/**
 * Which names hold credentials, in a request's headers or in an address's query string, and what
 * replaces their values wherever the router shows or stores a request. Pure; shared by the engine
 * (what it records) and the Event router view (what it lists).
 */

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
 * X-Session-Id, password, X-Functions-Key…), or a signature (a signed address's `sig`, as Azure's
 * shared access signatures carry it, S3's X-Amz-Signature, X-Hub-Signature-256): whoever holds a
 * signed address can call it. A name-based rule may hide a harmless value (Idempotency-Key),
 * which costs a detail when debugging; missing a secret would leak it.
 */
const SECRET_WORD =
  /auth|token|secret|passw|cookie|session|credential|signature|(?:^|[-_.])(?:sig|(?:api)?key)(?:$|[-_.])|apikey/;

/**
 * Secret only as the whole name: Azure Functions take their key as `?code=`, and an OAuth
 * authorization code travels so too; X-Status-Code is no secret.
 */
const SECRET_WHOLE_NAMES = new Set(['code']);

export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || SECRET_WHOLE_NAMES.has(lower) || SECRET_WORD.test(lower);
}
