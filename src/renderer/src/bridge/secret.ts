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

/**
 * The secret an address opened in this tab brings, when it differs from the one in use: after
 * `npm run web` restarts with a new secret, pasting its new address into the same tab changes only
 * the fragment, which does not reload the page. Null when nothing is to change. `current` is null
 * on the page that says the address had no secret: any secret is new there.
 */
export function newSecretIn(hash: string, current: string | null): string | null {
  const next = secretFromFragment(hash);
  return next && next !== current ? next : null;
}

/**
 * Web mode: a new launch's address opened in this tab takes effect at once (the page reloads with
 * the new secret kept for the tab) instead of talking to the new engine with the old secret.
 */
export function followNewSecrets(
  current: string | null,
  reload: () => void = () => location.reload(),
) {
  const onHashChange = () => {
    const next = newSecretIn(window.location.hash, current);
    if (!next) return;
    sessionStorage.setItem(STORAGE_KEY, next);
    history.replaceState(null, '', window.location.pathname + window.location.search);
    reload();
  };
  window.addEventListener('hashchange', onHashChange);
  return () => window.removeEventListener('hashchange', onHashChange);
}
