/**
 * Log lines never carry a secret: `Authorization` headers, bearer tokens and the parameters
 * `code`, `refresh_token`, `access_token`, `client_secret`, `code_verifier` and `access_code`, in
 * URLs, form bodies and JSON alike, become `[redacted]`. Pure.
 */
const SECRET_NAMES = [
  'code',
  'refresh_token',
  'access_token',
  'client_secret',
  'code_verifier',
  'access_code',
  'token',
];
const NAMES = SECRET_NAMES.join('|');

const RULES: [RegExp, string][] = [
  // JSON members: "refresh_token": "…"
  [
    new RegExp(`("(?:${NAMES}|authorization)"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'),
    '$1"[redacted]"',
  ],
  // Query strings and form bodies: code=…&
  [new RegExp(`((?:^|[?&\\s;,])(?:${NAMES})=)[^&\\s#;,"']+`, 'gi'), '$1[redacted]'],
  // Headers: Authorization: Bearer …
  [/(authorization\s*[:=]\s*)[^\r\n,"}]+/gi, '$1[redacted]'],
  // Schemes anywhere: Bearer …, <vendor>-oauthtoken …
  [/\b(bearer|[a-z]+-oauthtoken)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
];

export function redactSecrets(text: string): string {
  let result = text;
  for (const [pattern, replacement] of RULES) result = result.replace(pattern, replacement);
  return result;
}
