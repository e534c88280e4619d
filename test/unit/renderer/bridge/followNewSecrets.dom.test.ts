// @vitest-environment happy-dom
/**
 * After `npm run web` restarts with a new secret, its new address opened in the same tab (only
 * the fragment changes, so the page does not reload by itself) takes effect: the tab keeps the
 * new secret and reloads; the same secret again, or none, changes nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  followNewSecrets,
  newSecretIn,
  takeLaunchSecret,
} from '../../../../src/renderer/src/bridge/secret';

const OLD = 'a'.repeat(64);
const NEW = 'b'.repeat(64);

afterEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

async function openInThisTab(hash: string) {
  window.location.hash = hash;
  window.dispatchEvent(new HashChangeEvent('hashchange'));
  await Promise.resolve();
}

describe('a new launch address in the same tab', () => {
  it('is followed: the new secret is kept for the tab, out of the address bar, and the page reloads', async () => {
    window.location.hash = `#secret=${OLD}`;
    expect(takeLaunchSecret()).toBe(OLD);
    const reload = vi.fn();
    const stop = followNewSecrets(OLD, reload);
    try {
      await openInThisTab(`#secret=${NEW}`);
      expect(reload).toHaveBeenCalledTimes(1);
      expect(window.location.hash).toBe('');
      // After the reload the page starts with the new secret.
      expect(takeLaunchSecret()).toBe(NEW);
    } finally {
      stop();
    }
  });

  it('changes nothing for the same secret, a fragment without one, or a malformed one', async () => {
    const reload = vi.fn();
    const stop = followNewSecrets(OLD, reload);
    try {
      await openInThisTab(`#secret=${OLD}`);
      await openInThisTab('#somewhere');
      await openInThisTab('#secret=<script>');
      expect(reload).not.toHaveBeenCalled();
    } finally {
      stop();
    }
  });

  it('connects the page that had no secret as soon as an address with one is opened', () => {
    expect(newSecretIn(`#secret=${NEW}`, null)).toBe(NEW);
    expect(newSecretIn('#secret=', null)).toBeNull();
    expect(newSecretIn(`#secret=${OLD}`, OLD)).toBeNull();
  });
});
