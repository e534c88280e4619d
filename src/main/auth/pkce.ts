import { createHash, randomBytes } from 'node:crypto';

/** RFC 7636: only S256 (a `plain` challenge gives no protection against a leaked code). */
export const PKCE_METHOD = 'S256';

export interface Pkce {
  /** Kept in memory until the code exchange; never leaves this process otherwise. */
  verifier: string;
  /** base64url(SHA-256(verifier)), sent with the authorization request. */
  challenge: string;
}

/** A fresh verifier (32 random bytes: 43 base64url characters, RFC 7636 4.1) and its challenge. */
export function createPkce(random: (size: number) => Buffer = randomBytes): Pkce {
  const verifier = random(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return { verifier, challenge };
}
