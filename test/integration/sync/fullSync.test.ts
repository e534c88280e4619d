import { describe, expect, it } from 'vitest';
import { READ_ENTITY_FIXED_FIELDS } from '@portaldesk/portal-api/domain/readEntity';
import { syncSession } from './syncSession';

describe('full sync against the emulator', () => {
  it('mirrors every record of both portals, with their modules, settings and people', async () => {
    const s = await syncSession({ emulator: { records: 300 }, engine: { pageSize: 25 } });
    const result = await s.engine.syncAccount(s.account).done;
    expect(result).toMatchObject({ state: 'done', message: null });
    expect(result.outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(s.emulator.portals).toHaveLength(2);
    expect(result.records).toBeGreaterThanOrEqual(300);

    for (const portalId of s.emulator.portals) {
      const server = s.serverIds(portalId);
      expect(s.mirroredIds(portalId)).toEqual(server);
      const portal = s.mirror.metadata.portal(portalId);
      expect(portal).toMatchObject({ accountId: 'acc-1', dc: 'us' });
      expect(portal?.weekStartDay).not.toBeNull();

      // Every module (built-in ones too), the custom ones with their settings.
      const modules = s.mirror.metadata.modules(portalId);
      expect(modules.map((m) => m.apiName)).toEqual(
        expect.arrayContaining(['assets', 'vendors', 'change_requests', 'tasks']),
      );
      const assets = modules.find((m) => m.apiName === 'assets')!;
      const config = (
        await s.call('GET', `/portal/${portalId}/settings/fields-configuration?module=assets`)
      ).body;
      const fields = s.mirror.metadata.fields(portalId, assets.id);
      expect(fields.map((f) => f.id).sort()).toEqual(
        config.fields.map((f: { id: string }) => f.id).sort(),
      );
      const statuses = s.mirror.metadata.statuses(portalId, assets.id);
      expect(statuses.map((st) => st.name)).toEqual(
        config.statuses.map((st: { name: string }) => st.name),
      );
      const options = s.mirror.metadata.moduleOptions(portalId, assets.id);
      const category = fields.find((f) => f.apiName === 'cf_category')!;
      const categories = (
        await s.call(
          'GET',
          `/portal/${portalId}/settings/options?module=assets&field=${category.id}&page=1&per_page=200&index=0&range=200`,
        )
      ).body.custom_options.map((o: { value: string }) => o.value);
      expect(options.filter((o) => o.fieldId === category.id).map((o) => o.value)).toEqual(
        categories,
      );
      const tags = fields.find((f) => f.apiName === 'cf_tags')!;
      expect(options.filter((o) => o.fieldId === tags.id).length).toBeGreaterThan(1);
      const sections = s.store.db
        .prepare('SELECT count(*) FROM sections WHERE portal_id = ?')
        .pluck()
        .get(portalId) as number;
      expect(sections).toBeGreaterThan(0);

      // People: the owner and everyone records mention, with names.
      const users = s.mirror.metadata.users(portalId);
      const owners = s.store.db
        .prepare('SELECT DISTINCT owner_zpuid FROM records WHERE portal_id = ?')
        .pluck()
        .all(portalId) as string[];
      for (const zpuid of owners) {
        expect(users.find((u) => u.zpuid === zpuid)?.name).toBeTruthy();
      }
    }
    expect(s.malformed).toEqual([]);
    expect(s.warnings).toEqual([]);
  });

  it('stores records field by field as the API shows them', async () => {
    const s = await syncSession();
    await s.engine.syncAccount(s.account).done;
    const portalId = s.emulator.portals[0]!;
    const ids = s.serverIds(portalId).get('assets')!;
    for (const id of [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids.at(-1)!]) {
      const { entity } = (await s.call('GET', `/portal/${portalId}/projects/assets/entities/${id}`))
        .body;
      const row = s.store.db
        .prepare('SELECT * FROM records WHERE portal_id = ? AND id = ?')
        .get(portalId, id) as Record<string, unknown>;
      expect(row).toMatchObject({
        name: entity.name,
        description: entity.description,
        status_id: entity.status.id,
        layout_id: entity.layout.id,
        project_id: entity.project?.id ?? null,
        project_name: entity.project?.name ?? null,
        owner_zpuid: entity.owner.zpuid,
        is_closed: entity.is_closed ? 1 : 0,
        is_external: entity.is_external ? 1 : 0,
        created_time: entity.created_time,
        last_updated_time: entity.last_updated_time,
        trashed_time: null,
      });
      const fixed = new Set(READ_ENTITY_FIXED_FIELDS);
      const custom = Object.fromEntries(Object.entries(entity).filter(([key]) => !fixed.has(key)));
      expect(JSON.parse(row.custom as string)).toEqual(custom);
    }
  });

  it('reports progress per module up to page_info totals, with calls and an ETA', async () => {
    const s = await syncSession({ engine: { pageSize: 10 } });
    await s.engine.syncAccount(s.account).done;
    const portalId = s.emulator.portals[0]!;
    const assetsTotal = s.serverIds(portalId).get('assets')!.length;
    const assets = s
      .progress()
      .filter((p) => p.portalId === portalId && p.module === 'Assets' && p.phase === 'records');
    expect(assets.length).toBeGreaterThanOrEqual(Math.ceil(assetsTotal / 10));
    const last = assets.at(-1)!;
    expect(last).toMatchObject({ done: assetsTotal, total: assetsTotal, etaMs: 0 });
    // The probe for the newest change, then one call per page.
    expect(last.calls).toBe(1 + Math.ceil(assetsTotal / 10));
    // Once the probe told the total, every event carries an estimate.
    expect(assets.filter((p) => p.total !== null).every((p) => p.etaMs !== null)).toBe(true);
    const states = s.events
      .filter((e) => e.type === 'state')
      .map((e) => (e as { state: string }).state);
    expect(states).toEqual(['running', 'done']);
  });
});
