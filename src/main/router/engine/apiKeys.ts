import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new API key for a custom publisher: 32 random bytes, hex, with a recognisable prefix. */
export function generateApiKey(): string {
  return `pdk_${randomBytes(32).toString('hex')}`;
}

/** Keys are stored as SHA-256 only (issue 8: "shown once, stored hashed"). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const given = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The last four characters, so a user can tell keys apart without the key being kept. */
export function apiKeyHint(key: string): string {
  return key.slice(-4);
}
