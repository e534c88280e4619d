/**
 * What the browser brought back to the loopback listener (spec "Flow" 2): on accept `code`,
 * `location` (the user's data center) and `accounts-server`; on reject `error=access_denied`.
 * Pure: the listener passes the request URL and the `state` it sent.
 */
export type RedirectAnswer =
  | { kind: 'code'; code: string; location: string | null; accountsServer: string | null }
  | { kind: 'error'; error: string; description: string | null }
  /** A `state` other than ours: another sign-in's answer, or a forged one. Never exchanged. */
  | { kind: 'state_mismatch' }
  /** Neither a code nor an error (e.g. the user typed the address). */
  | { kind: 'malformed' };

export function readRedirectAnswer(params: URLSearchParams, expectedState: string): RedirectAnswer {
  if (params.get('state') !== expectedState) return { kind: 'state_mismatch' };
  const error = params.get('error');
  if (error) return { kind: 'error', error, description: params.get('error_description') };
  const code = params.get('code');
  if (!code) return { kind: 'malformed' };
  return {
    kind: 'code',
    code,
    location: params.get('location') || null,
    accountsServer: params.get('accounts-server') || null,
  };
}
