import { describe, expect, it } from 'vitest';
import { api, grantToken, testEmulator } from '../../support/emulator';
import { rawExchange } from '../../support/rawHttp';
// Imported here, not inside the test: its afterEach, registered from within a running test, never
// ran, and every run left the emulator's data file behind in the OS's temporary directory.
import { tempDir } from '../../support/tempDir';

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
    // A request line that is no address: answered, and the server (inside the app for the demo)
    // keeps serving.
    const port = Number(new URL(base).port);
    expect(
      await rawExchange(port, `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
    ).toBe('HTTP/1.1 400 Bad Request');
    expect((await api(base, token, 'GET', '/api/v3/nothing')).status).toBe(400);
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

  it('applies a write and then drops its answer, and counts the writes it applied', async () => {
    const emulator = await testEmulator();
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    const admin = { 'X-Emulator-Admin': emulator.adminSecret };
    const portal = emulator.portals[0]!;
    const path = `/api/v3/portal/${portal}/projects/vendors/entities`;
    const id = (await api(base, token, 'GET', `${path}?page=1&per_page=1`)).body.entities[0].id;
    const faults = { faults: [{ path: '/entities/\\d+$', method: 'PATCH', dropAnswer: 1 }] };
    expect((await api(base, undefined, 'POST', '/__emulator/faults', faults, admin)).status).toBe(
      200,
    );

    // No answer: the connection closes as with `reset`...
    await expect(
      api(base, token, 'PATCH', `${path}/${id}`, { name: 'Applied, unanswered' }),
    ).rejects.toThrow();
    // ...but the change was made, and counted; reads still answer.
    const read = await api(base, token, 'GET', `${path}/${id}`);
    expect(read.body.entity.name).toBe('Applied, unanswered');
    // A refused write is not counted.
    await expect(api(base, token, 'PATCH', `${path}/${id}`, { name: '' })).rejects.toThrow();
    const stats = await api(base, undefined, 'GET', '/__emulator/stats', undefined, admin);
    expect(stats.body.writes_applied).toEqual({ [`PATCH ${path}/${id}`]: 1 });
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

describe('emulator data and reset', () => {
  it('keeps its data in a --data file across restarts instead of seeding again', async () => {
    const file = `${tempDir()}/emulator.sqlite`;
    const first = await testEmulator({ data: file, records: 30 });
    const base = first.dcs.us!.api;
    const token = grantToken(first);
    const created = await api(
      base,
      token,
      'POST',
      `/api/v3/portal/${first.portals[0]}/projects/vendors/entities`,
      {
        name: 'Kept across restarts',
        cf_contact_email: 'keep@example.com',
      },
    );
    expect(created.status).toBe(201);
    const count = () =>
      first.state.db.prepare('SELECT COUNT(*) AS n FROM entities').get() as { n: number };
    const before = count().n;
    await first.close();

    const second = await testEmulator({ data: file, records: 30 });
    const rows = second.state.db
      .prepare("SELECT COUNT(*) AS n FROM entities WHERE name = 'Kept across restarts'")
      .get() as { n: number };
    expect(rows.n).toBe(1);
    expect(
      (second.state.db.prepare('SELECT COUNT(*) AS n FROM entities').get() as { n: number }).n,
    ).toBe(before);
    expect(second.portals).toEqual(first.portals);
    // New ids continue after the file's highest one.
    expect(second.state.nextId()).toBeGreaterThan(Number(created.body.entity.id));
  });

  it('puts the data back to the seed and clears tokens, limits and faults on POST reset', async () => {
    const emulator = await testEmulator({ records: 20 });
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    const admin = { 'X-Emulator-Admin': emulator.adminSecret };
    const seeded = emulator.state.db.prepare('SELECT COUNT(*) AS n FROM entities').get();
    await api(
      base,
      token,
      'POST',
      `/api/v3/portal/${emulator.portals[0]}/projects/vendors/entities`,
      {
        name: 'Gone after reset',
        cf_contact_email: 'gone@example.com',
      },
    );
    await api(
      base,
      undefined,
      'POST',
      '/__emulator/faults',
      { faults: [{ path: 'x', latencyMs: 1 }] },
      admin,
    );
    const reset = await api(base, undefined, 'POST', '/__emulator/reset', undefined, admin);
    expect(reset.status).toBe(200);
    expect(emulator.state.db.prepare('SELECT COUNT(*) AS n FROM entities').get()).toEqual(seeded);
    expect((await api(base, token, 'GET', '/api/v3/portals')).body.errorCode).toBe(
      'INVALID_OAUTHTOKEN',
    );
    const stats = await api(base, undefined, 'GET', '/__emulator/stats', undefined, admin);
    expect(stats.body.faults).toEqual([]);
    expect(stats.body.tokens_issued.access_tokens).toBe(0);
  });

  it('answers malformed JSON with INVALID_INPUTSTREAM and changes nothing', async () => {
    const emulator = await testEmulator({ records: 5 });
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    const before = emulator.state.db.prepare('SELECT COUNT(*) AS n FROM entities').get();
    const reply = await api(
      base,
      token,
      'POST',
      `/api/v3/portal/${emulator.portals[0]}/projects/vendors/entities`,
      '{"name": "x",',
    );
    expect(reply.status).toBe(400);
    expect(reply.body.errorCode).toBe('INVALID_INPUTSTREAM');
    expect(emulator.state.db.prepare('SELECT COUNT(*) AS n FROM entities').get()).toEqual(before);
  });
});
