import { describe, expect, it } from 'vitest';
import { networkStatus, type NetworkFacts } from '../../../src/renderer/src/frame/networkStatus';

const facts = (over: Partial<NetworkFacts> = {}): NetworkFacts => ({
  connection: 'connected',
  online: true,
  serviceAnswered: true,
  workOffline: false,
  ...over,
});

describe("the status bar's network words", () => {
  it('never says Online while the engine does not answer', () => {
    for (const workOffline of [false, true]) {
      for (const online of [false, true]) {
        expect(networkStatus(facts({ connection: 'disconnected', online, workOffline }))).toEqual({
          label: 'Engine unreachable: showing what was last read',
          ok: false,
        });
      }
    }
  });

  it('says Online only with a network, an engine and a service that answered (or was not asked yet)', () => {
    expect(networkStatus(facts())).toEqual({ label: 'Online', ok: true });
    expect(networkStatus(facts({ serviceAnswered: null }))).toEqual({ label: 'Online', ok: true });
    expect(networkStatus(facts({ serviceAnswered: false })).ok).toBe(false);
    expect(networkStatus(facts({ online: false })).label).toBe(
      'Offline: working from the local mirror',
    );
    expect(networkStatus(facts({ workOffline: true })).label).toBe(
      'Offline by choice: nothing is sent',
    );
  });
});
