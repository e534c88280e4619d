import { SECRET_FRAGMENT_KEY } from '../../../shared/ipc/webProtocol';

const STORAGE_KEY = 'portaldesk.secret';

/** Reads `secret=…` from a URL fragment such as `#secret=ab12`. */
export function secretFromFragment(hash: string): string | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const secret = params.get(SECRET_FRAGMENT_KEY);
  return secret && /^[0-9a-f]{16,128}$/i.test(secret) ? secret : undefined;
}

/**
 * Takes the launch secret from the address the engine printed, keeps it for this tab only
 * (sessionStorage survives a reload, not a new tab) and removes it from the address bar.
 */
export function takeLaunchSecret(): string | undefined {
  const fromUrl = secretFromFragment(window.location.hash);
  if (fromUrl) {
    sessionStorage.setItem(STORAGE_KEY, fromUrl);
    history.replaceState(null, '', window.location.pathname + window.location.search);
    return fromUrl;
  }
  return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
}
