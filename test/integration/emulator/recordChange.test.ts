/**
 * The admin surface's record change (`POST /__emulator/record-change`): a record PATCH made as
 * another member. Checked against the API's own PATCH by that member on a twin emulator (same
 * seed): the same record afterwards, the same refusals, and nothing written when refused.
 */
import { describe, expect, it } from 'vitest';
import { api, grantToken, testEmulator } from '../../support/emulator';

type Emulator = Awaited<ReturnType<typeof testEmulator>>;

const RECORDS = 60;

async function twin() {
  return testEmulator({ records: RECORDS });
}

function facts(emulator: Emulator) {
  const { db } = emulator.state;
  const portalId = emulator.portals[0]!;
  const moduleId = (
    db
      .prepare("SELECT id FROM modules WHERE portal_id = ? AND api_name = 'assets'")
      .get(Number(portalId)) as { id: number }
  ).id;
  const ids = (
    db.prepare('SELECT id FROM entities WHERE module_id = ? ORDER BY id').all(moduleId) as {
      id: number;
    }[]
  ).map((row) => String(row.id));
  const statusId = (name: string) =>
    String(
      (
        db
          .prepare('SELECT id FROM statuses WHERE module_id = ? AND name = ?')
          .get(moduleId, name) as {
          id: number;
        }
      ).id,
    );
  const demoZpuid = (
    db.prepare('SELECT zpuid FROM users WHERE email = ?').get(emulator.user.email) as {
      zpuid: string;
    }
  ).zpuid;
  return { portalId, ids, statusId, demoZpuid };
}

const change = (emulator: Emulator, body: unknown, secret = emulator.adminSecret) =>
  api(emulator.dcs.us!.api, undefined, 'POST', '/__emulator/record-change', body, {
    'X-Emulator-Admin': secret,
  });

const entityRows = (emulator: Emulator) =>
  emulator.state.db.prepare('SELECT * FROM entities ORDER BY id').all();

/** A record as the API shows it, without the time of the last change (each twin has its own). */
async function shown(emulator: Emulator, portalId: string, id: string) {
  const reply = await api(
    emulator.dcs.us!.api,
    grantToken(emulator),
    'GET',
    `/api/v3/portal/${portalId}/projects/assets/entities/${id}`,
  );
  const entity = { ...(reply.body.entity as Record<string, unknown>) };
  delete entity.last_updated_time;
  return entity;
}

describe('POST /__emulator/record-change', () => {
  it('changes a record as another member, with a new last-modified time', async () => {
    const emulator = await twin();
    const { portalId, ids, demoZpuid } = facts(emulator);
    const id = ids[0]!;
    const before = await api(
      emulator.dcs.us!.api,
      grantToken(emulator),
      'GET',
      `/api/v3/portal/${portalId}/projects/assets/entities/${id}`,
    );
    emulator.state.clock.advance(60_000);
    const reply = await change(emulator, {
      portal_id: portalId,
      module: 'assets',
      entity_id: id,
      changes: { name: 'Renamed by a colleague' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.entity).toMatchObject({ id, name: 'Renamed by a colleague' });
    expect(reply.body.changed_by.zpuid).not.toBe(demoZpuid);
    expect(reply.body.changed_by.name).toMatch(/\S+ \S+/);
    expect(
      Date.parse(reply.body.entity.last_updated_time) -
        Date.parse(before.body.entity.last_updated_time),
    ).toBeGreaterThanOrEqual(60_000);
    // The app's user reads the new name through the API.
    expect((await shown(emulator, portalId, id)).name).toBe('Renamed by a colleague');
  });

  it('leaves each record as the same PATCH through the API by that member does', async () => {
    const [viaAdmin, viaApi] = await Promise.all([twin(), twin()]);
    const { portalId, ids, statusId } = facts(viaAdmin);
    const colleague = 'priya.nair@portaldesk.demo';
    const token = grantToken(viaApi, { email: colleague });
    const inStock = ids.find(
      (id) =>
        (
          viaAdmin.state.db
            .prepare('SELECT status_id FROM entities WHERE id = ?')
            .get(Number(id)) as {
            status_id: number;
          }
        ).status_id === Number(statusId('In Stock')),
    )!;
    const others = ids.filter((id) => id !== inStock);
    const cases: [string, unknown][] = [
      [others[0]!, { name: 'A new name' }],
      [others[1]!, { description: 'Changed elsewhere.\nSecond line.' }],
      [others[2]!, { name: 'Both', description: '' }],
      [inStock, { status: { id: statusId('Assigned') } }],
      [others[3]!, { cf_category: 'Network' }],
      // Refusals: each twin must refuse alike and change nothing.
      [others[4]!, { name: '' }],
      [others[5]!, { name: 'x'.repeat(201) }],
      [others[6]!, { id: '1' }],
      [others[7]!, { no_such_field: 1 }],
    ];
    const statuses: number[] = [];
    for (const [id, body] of cases) {
      const a = await change(viaAdmin, {
        portal_id: portalId,
        module: 'assets',
        entity_id: id,
        changes: body,
        email: colleague,
      });
      const b = await api(
        viaApi.dcs.us!.api,
        token,
        'PATCH',
        `/api/v3/portal/${portalId}/projects/assets/entities/${id}`,
        body,
      );
      expect({ body, status: a.status }).toEqual({ body, status: b.status });
      if (b.status !== 200) expect(a.body).toEqual(b.body);
      expect(await shown(viaAdmin, portalId, id)).toEqual(await shown(viaApi, portalId, id));
      statuses.push(b.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 400, 400, 400, 400]);
    // The status change is in the timeline under the colleague's name in both.
    const timeline = (emulator: Emulator) =>
      emulator.state.db
        .prepare('SELECT changed_by FROM status_timeline WHERE entity_id = ? ORDER BY id')
        .all(Number(inStock))
        .map((row) => (row as { changed_by: string }).changed_by);
    expect(timeline(viaAdmin)).toEqual(timeline(viaApi));
    expect(timeline(viaAdmin).at(-1)).toBe(
      (
        viaAdmin.state.db.prepare('SELECT zpuid FROM users WHERE email = ?').get(colleague) as {
          zpuid: string;
        }
      ).zpuid,
    );
  });

  it('refuses in words and changes nothing: no secret, bad ids, a stranger, no changes, the trash', async () => {
    const emulator = await twin();
    const { portalId, ids } = facts(emulator);
    const valid = {
      portal_id: portalId,
      module: 'assets',
      entity_id: ids[0],
      changes: { name: 'x' },
    };
    const before = entityRows(emulator);
    const cases: [unknown, number, RegExp][] = [
      [{ ...valid, portal_id: '999' }, 404, /Portal 999/],
      [{ ...valid, module: 'no_module' }, 404, /no_module/],
      [{ ...valid, entity_id: '12345' }, 404, /Record 12345/],
      [{ ...valid, entity_id: 'abc' }, 400, /entity_id/],
      [{ ...valid, email: 'nobody@example.com' }, 400, /not an active member/],
      [{ ...valid, changes: 'rename' }, 400, /changes must be an object/],
      [{ ...valid, changes: undefined }, 400, /changes must be an object/],
      [{ ...valid, portal_id: undefined }, 400, /portal_id/],
    ];
    for (const [body, status, message] of cases) {
      const reply = await change(emulator, body);
      expect({ body, status: reply.status }).toEqual({ body, status });
      expect(reply.body.message).toMatch(message);
    }
    expect((await change(emulator, valid, 'wrong-secret')).status).toBe(403);
    // A trashed record cannot be changed, by anyone.
    const trashed = await api(
      emulator.dcs.us!.api,
      grantToken(emulator),
      'POST',
      `/api/v3/portal/${portalId}/projects/assets/entities/${ids[1]}/trash`,
    );
    expect(trashed.status).toBeLessThan(300);
    const afterTrash = entityRows(emulator);
    const refused = await change(emulator, { ...valid, entity_id: ids[1] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/in the trash/);
    expect(entityRows(emulator)).toEqual(afterTrash);
    const others = (rows: unknown[]) =>
      rows.filter((row) => (row as { id: number }).id !== Number(ids[1]));
    expect(others(afterTrash)).toEqual(others(before));
  });
});
