import { createHash, timingSafeEqual } from 'node:crypto';
import { allowedHostHeaders } from '@portaldesk/portal-api/http/loopbackHost';

/**
 * Web mode listens on loopback only, but a browser can still be tricked into talking to it: a
 * DNS-rebinding page reaches 127.0.0.1 under a foreign Host, and any page can POST cross-origin.
 * So every request must name a loopback host with our port (`isAllowedHostHeader`, the check
 * every loopback server of ours shares), any Origin must be ours, and calls need the secret.
 */

/**
 * Browsers always send Origin on WebSocket upgrades and cross-origin or non-GET fetches. A missing
 * Origin is a non-browser client (curl, tests), which still needs the secret.
 */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return allowedHostHeaders(port).some((host) => origin.toLowerCase() === `http://${host}`);
}

/** Compares in constant time; hashing first makes the comparison independent of length too. */
export function secretMatches(presented: string | undefined, secret: string): boolean {
  if (presented === undefined || presented === '') return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}
