import { describe, expect, it } from 'vitest';
import { api, grantToken, testEmulator } from '../../support/emulator';

describe('emulator core', () => {
  it('answers an unknown URL, a v2 path and a trailing slash with URL_RULE_NOT_CONFIGURED', async () => {
    const emulator = await testEmulator();
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    for (const path of ['/api/v3/nothing', '/restapi/portals/', '/api/v3/portals/']) {
      const reply = await api(base, token, 'GET', path);
      expect(reply.status).toBe(400);
      expect(reply.body.errorCode).toBe('URL_RULE_NOT_CONFIGURED');
    }
  });

  it('refuses the admin surface without its secret, and serves stats with it', async () => {
    const emulator = await testEmulator();
    const base = emulator.dcs.us!.api;
    expect((await api(base, undefined, 'GET', '/__emulator/stats')).status).toBe(403);
    const stats = await api(base, undefined, 'GET', '/__emulator/stats', undefined, {
      'X-Emulator-Admin': emulator.adminSecret,
    });
    expect(stats.status).toBe(200);
    expect(stats.body.throttled).toBe(0);
  });

  it('seeds the same data for the same seed', async () => {
    const a = await testEmulator({ seed: 7 });
    const b = await testEmulator({ seed: 7 });
    const c = await testEmulator({ seed: 8 });
    const names = (emulator: typeof a) =>
      emulator.state.db.prepare('SELECT name, custom FROM entities ORDER BY id').all();
    expect(names(a)).toEqual(names(b));
    expect(names(a)).not.toEqual(names(c));
    expect(a.portals).toHaveLength(2);
  });
});
