import { describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../../src/main/api/requestScheduler';
import {
  Connectivity,
  memoryWorkOfflineStore,
  workOfflineStore,
  type ConnectivityState,
} from '../../../src/main/connectivity/connectivity';
import { isNetworkFailure } from '../../../src/main/api/client/networkFailure';
import { appMigrations, Store } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';

/** A stand-in for the request scheduler: the calls it reports ending. */
function calls() {
  const listeners = new Set<(outcome: CallOutcome) => void>();
  return {
    onCallEnded(listener: (outcome: CallOutcome) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    end(outcome: CallOutcome) {
      for (const listener of listeners) listener(outcome);
    },
  };
}

const refused = () =>
  Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });

describe('connectivity', () => {
  it('reads the connection from every call the scheduler ends', () => {
    const source = calls();
    const connectivity = Connectivity.fedBy(source, memoryWorkOfflineStore());
    const seen: ConnectivityState[] = [];
    connectivity.onChange((state) => seen.push(state));
    expect(connectivity.online()).toBeNull();
    source.end({ answered: false, error: refused() });
    expect(connectivity.online()).toBe(false);
    // A 429 or a 500 is still the service answering.
    source.end({ answered: true });
    expect(connectivity.online()).toBe(true);
    source.end({ answered: true });
    expect(seen).toEqual([
      { reachable: false, workOffline: false },
      { reachable: true, workOffline: false },
    ]);
  });

  it('learns nothing from a call stopped on our side or a token that could not be had', () => {
    const source = calls();
    const connectivity = Connectivity.fedBy(source, memoryWorkOfflineStore());
    source.end({ answered: true });
    source.end({ answered: false, error: new DOMException('stopped', 'AbortError') });
    source.end({ answered: false, error: new Error('The account is signed out.') });
    expect(connectivity.online()).toBe(true);
    source.end({ answered: false, error: new DOMException('too slow', 'TimeoutError') });
    expect(connectivity.online()).toBe(false);
  });

  it('keeps "Work offline" across restarts, and is offline while it is on whatever the calls say', () => {
    const store = Store.open({ dataDir: tempDir('portaldesk-connectivity-'), mode: 'test' });
    try {
      const source = calls();
      const first = Connectivity.fedBy(source, workOfflineStore(store.db));
      source.end({ answered: true });
      first.setWorkOffline(true);
      expect(first.state()).toEqual({ reachable: true, workOffline: true });
      expect(first.online()).toBe(false);
      const restarted = new Connectivity(workOfflineStore(store.db));
      expect(restarted.state()).toEqual({ reachable: null, workOffline: true });
      restarted.setWorkOffline(false);
      expect(new Connectivity(workOfflineStore(store.db)).state().workOffline).toBe(false);
    } finally {
      store.close();
    }
  });

  it('classifies failures by their network causes', () => {
    expect(isNetworkFailure(refused())).toBe(true);
    expect(
      isNetworkFailure(
        Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } }),
      ),
    ).toBe(true);
    expect(isNetworkFailure(new DOMException('stopped', 'AbortError'))).toBe(false);
    expect(isNetworkFailure(new RangeError('a bug'))).toBe(false);
  });
});

describe('migration 0010_connectivity.sql', () => {
  it('keeps the switch a user turned on before connectivity owned it', () => {
    const dataDir = tempDir('portaldesk-connectivity-migration-');
    const before = appMigrations.filter((m) => m.name < '0010_connectivity.sql');
    const old = Store.open({ dataDir, mode: 'test', migrations: before });
    old.db.exec("INSERT INTO outbox_settings (key, value) VALUES ('work_offline', 'true')");
    old.close();
    const store = Store.open({ dataDir, mode: 'test' });
    try {
      expect(new Connectivity(workOfflineStore(store.db)).state().workOffline).toBe(true);
    } finally {
      store.close();
    }
  });
});
