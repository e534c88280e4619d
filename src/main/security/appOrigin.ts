/**
 * The desktop renderer is served from a privileged custom scheme rather than file://, so it has a
 * real origin for CSP 'self', cannot read arbitrary files, and navigation checks compare hosts.
 */
export const APP_SCHEME = 'portaldesk';
export const APP_HOST = 'app';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Scheme, host and port of a URL. Node's URL gives custom schemes the origin "null", so origins are
 * compared this way instead.
 */
export function locationKey(url: string): string | null {
  const parsed = parse(url);
  if (!parsed || parsed.host === '') return null;
  return `${parsed.protocol}//${parsed.host}`;
}

/** True when `url` is a page of our own renderer: the app scheme, or the dev server in development. */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  const key = locationKey(url);
  if (key === null) return false;
  if (key === `${APP_SCHEME}://${APP_HOST}`) return true;
  return devServerUrl !== undefined && key === locationKey(devServerUrl);
}
