import { describe, expect, it } from 'vitest';
import { api, grantToken, testEmulator } from '../../support/emulator';

describe('rate limit over HTTP', () => {
  it('allows 200 calls per endpoint, blocks the 201st for 10 minutes, leaves other endpoints open, and reopens', async () => {
    const emulator = await testEmulator({ records: 0 });
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    for (let i = 1; i <= 200; i++) {
      const reply = await api(base, token, 'GET', '/api/v3/portals');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('RateLimit-Remaining')).toBe(String(200 - i));
    }
    const blocked = await api(base, token, 'GET', '/api/v3/portals');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('Retry-After')).toBe('600');
    expect(blocked.headers.get('RateLimit')).toBe('200');
    expect(blocked.headers.get('RateLimit-Window')).toBe('120');
    expect(blocked.headers.get('RateLimit-Window-Unit')).toBe('seconds');
    expect(blocked.body.errorCode).toBe('RATE_LIMIT_EXCEEDED');

    // Another endpoint, and the same route for another portal, are counted separately.
    const [portal] = emulator.portals;
    expect((await api(base, token, 'GET', `/api/v3/portal/${portal}`)).status).toBe(200);

    const admin = { 'X-Emulator-Admin': emulator.adminSecret };
    const stats = await api(base, undefined, 'GET', '/__emulator/stats', undefined, admin);
    expect(stats.body.throttled).toBe(1);
    expect(stats.body.blocked).toEqual([{ key: 'us GET /api/v3/portals', retryAfterSeconds: 600 }]);

    await api(base, undefined, 'POST', '/__emulator/clock/advance', { seconds: 599 }, admin);
    const stillBlocked = await api(base, token, 'GET', '/api/v3/portals');
    expect(stillBlocked.status).toBe(429);
    expect(stillBlocked.headers.get('Retry-After')).toBe('1');
    await api(base, undefined, 'POST', '/__emulator/clock/advance', { seconds: 1 }, admin);
    const reopened = await api(base, token, 'GET', '/api/v3/portals');
    expect(reopened.status).toBe(200);
    expect(reopened.headers.get('RateLimit-Remaining')).toBe('199');
  });

  it('passes the block in scaled time with --time-scale', async () => {
    const emulator = await testEmulator({
      records: 0,
      timeScale: 600,
      rateLimit: { calls: 3 },
    });
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    for (let i = 0; i < 3; i++) await api(base, token, 'GET', '/api/v3/portals');
    const blocked = await api(base, token, 'GET', '/api/v3/portals');
    expect(blocked.status).toBe(429);
    // 10 emulated minutes at 600× are one real second; the window of 2 minutes is 0.2 s.
    expect(blocked.headers.get('Retry-After')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await api(base, token, 'GET', '/api/v3/portals')).status).toBe(200);
  });

  it('counts nothing when turned off', async () => {
    const emulator = await testEmulator({ records: 0, rateLimit: { calls: 2, enabled: false } });
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    for (let i = 0; i < 5; i++) {
      expect((await api(base, token, 'GET', '/api/v3/portals')).status).toBe(200);
    }
  });

  it('answers injected faults and keeps serving after them', async () => {
    const emulator = await testEmulator({ records: 0 });
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    const admin = { 'X-Emulator-Admin': emulator.adminSecret };
    const set = await api(
      base,
      undefined,
      'POST',
      '/__emulator/faults',
      { faults: [{ path: '^/api/v3/portals$', error500: 1 }] },
      admin,
    );
    expect(set.status).toBe(200);
    const failed = await api(base, token, 'GET', '/api/v3/portals');
    expect(failed.status).toBe(500);
    expect(failed.body.errorCode).toBe('INTERNAL_SERVER_ERROR');
    await api(
      base,
      undefined,
      'POST',
      '/__emulator/faults',
      { faults: [{ path: '^/api/v3/portals$', reset: 1 }] },
      admin,
    );
    await expect(
      fetch(`${base}/api/v3/portals`, { headers: { Authorization: `Bearer ${token}` } }),
    ).rejects.toThrow();
    await api(base, undefined, 'POST', '/__emulator/faults', { faults: [] }, admin);
    expect((await api(base, token, 'GET', '/api/v3/portals')).status).toBe(200);
    const bad = await api(
      base,
      undefined,
      'POST',
      '/__emulator/faults',
      { faults: [{ path: '(' }] },
      admin,
    );
    expect(bad.status).toBe(400);
  });
});
