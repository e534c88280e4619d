/**
 * Copying configuration between the two demo portals as a plan, against the emulator: a module
 * made in the first portal (a second layout, sections, a pick list with options, a currency field)
 * and changes to a module both portals have (a new field, a changed description, a new option) are
 * planned against the second portal, applied, replayed, and then both portals' configurations are
 * read through the API and compared: the target holds exactly what the source has (and keeps what
 * only it had). A plan made again after the replay has nothing left to do; a plan reviewed before
 * the target changed is refused; the copy's own layout and sections are not made twice when the
 * service already made them, and a field whose create answer was lost is not made twice.
 */
import { describe, expect, it } from 'vitest';
import { ConfigCopyService } from '../../../src/main/configure/copy/configCopyService';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings, type Session } from './configureSession';

const PLAIN = plainFieldSettings();

interface ApiField {
  api_name: string;
  display_name: string;
  field_type: string;
  is_default: boolean;
  is_mandatory: boolean;
  field_property?: Record<string, unknown> | null;
}

/** A module's configuration as the API shows it, ids left out, in the service's order. */
async function apiConfiguration(s: Session, portalId: string, module: string) {
  const reply = await s.call(
    'GET',
    `/portal/${portalId}/settings/fields-configuration?module=${module}`,
  );
  expect(reply.status).toBe(200);
  const body = reply.body as {
    layouts: {
      name: string;
      type: string;
      is_default: boolean;
      sections: { name: string; fields: { api_name: string }[] }[];
    }[];
    fields: ApiField[];
  };
  const fields = new Map<string, unknown>();
  for (const field of body.fields.filter((f) => !f.is_default)) {
    let options: string[] | null = null;
    if (field.field_type === 'pick_list' || field.field_type === 'multi_select') {
      const query = new URLSearchParams({
        module,
        field: field.api_name,
        page: '1',
        per_page: '200',
        index: '1',
        range: '200',
      });
      const listed = await s.call('GET', `/portal/${portalId}/settings/options?${query}`);
      expect(listed.status).toBe(200);
      options = (listed.body as { custom_options: { value: string }[] }).custom_options.map(
        (o) => o.value,
      );
    }
    fields.set(field.api_name, {
      label: field.display_name,
      type: field.field_type,
      mandatory: field.is_mandatory,
      property: field.field_property ?? null,
      options,
    });
  }
  const layouts = body.layouts.map((layout) => ({
    name: layout.name,
    type: layout.type,
    isDefault: layout.is_default,
    sections: layout.sections.map((section) => ({
      name: section.name,
      fields: section.fields.map((f) => f.api_name).sort(),
    })),
  }));
  return { layouts, fields };
}

describe('copying configuration between portals as a plan', () => {
  it('plans, applies and replays a copy that leaves the target equal to the source', async () => {
    const s = await outboxSession({ records: 40 });
    const configure = configureOn(s);
    const copy = new ConfigCopyService({ configure, mirror: s.mirror, repo: s.outbox.repo });
    const [sourceId, targetId] = s.emulator.portals as [string, string];
    expect(s.mirror.metadata.portal(targetId)).toBeDefined();

    // ---- the source: a new module, and changes to one both portals have -------------------
    s.outbox.setWorkOffline(true);
    const contracts = configure.createModule({
      portalId: sourceId,
      singularName: 'Contract',
      pluralName: 'Contracts',
      iconClass: 'icon-contract',
      isGlobal: false,
      isAllProjects: true,
      isOverviewNeeded: true,
      defaultLayoutType: 'public',
      projects: [],
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    // After a create the app syncs the portal (its layouts and fields); here, by hand.
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    const contractsId = configure
      .modules(sourceId)
      .modules.find((m) => m.pluralName === 'Contracts')!.id;
    expect(contractsId).not.toBe(contracts.id);
    s.outbox.setWorkOffline(true);
    let layouts = configure.createLayout({
      portalId: sourceId,
      moduleId: contractsId,
      name: 'Legal',
      type: 'private',
      referenceId: null,
    });
    const legal = layouts.layouts.find((l) => l.name === 'Legal')!;
    layouts = configure.putSection({
      portalId: sourceId,
      moduleId: contractsId,
      layoutId: legal.id,
      name: 'Terms',
    });
    const terms = layouts.layouts
      .find((l) => l.id === legal.id)!
      .sections.find((section) => section.name === 'Terms')!;
    let fields = configure.createField({
      portalId: sourceId,
      moduleId: contractsId,
      type: 'pick_list',
      settings: { ...PLAIN, label: 'Contract type', mandatory: true },
      layoutId: legal.id,
      sectionId: terms.id,
    });
    const kind = fields.fields.find((f) => f.label === 'Contract type')!;
    configure.changeOptions({
      portalId: sourceId,
      moduleId: contractsId,
      fieldId: kind.id,
      add: ['Lease', 'Service', 'Purchase'],
    });
    const standard = configure
      .layouts(sourceId, contractsId)
      .layouts.find((l) => l.isDefault && !l.localOnly);
    // The new module's default layout is known once its creation answered and was stored.
    expect(standard).toBeDefined();
    configure.createField({
      portalId: sourceId,
      moduleId: contractsId,
      type: 'currency',
      settings: {
        ...PLAIN,
        label: 'Contract value',
        currencyListType: 'field_currency',
        currencyCode: 'EUR',
        precision: 2,
      },
      layoutId: standard!.id,
      sectionId: standard!.sections.find((section) => section.name === 'Details')?.id ?? null,
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    // The value is on the Legal layout too, and the Terms section of it.
    const legalNow = configure
      .layouts(sourceId, contractsId)
      .layouts.find((l) => l.name === 'Legal')!;
    const value = configure
      .fields(sourceId, contractsId)
      .fields.find((f) => f.label === 'Contract value')!;
    configure.placeField({
      portalId: sourceId,
      moduleId: contractsId,
      layoutId: legalNow.id,
      fieldKey: value.apiName!,
      mode: 'place',
      sectionId: legalNow.sections.find((section) => section.name === 'Terms')!.id,
      position: 1,
    });
    s.outbox.setWorkOffline(true);
    const assets = configure.modules(sourceId).modules.find((m) => m.apiName === 'assets')!;
    const assetLayouts = configure.layouts(sourceId, assets.id).layouts;
    const assetFields = configure.fields(sourceId, assets.id).fields;
    const notes = assetFields.find((f) => f.apiName === 'cf_notes')!;
    const category = assetFields.find((f) => f.apiName === 'cf_category')!;
    configure.updateField({
      portalId: sourceId,
      moduleId: assets.id,
      fieldId: notes.id,
      changes: { description: 'Anything the serial number does not say' },
    });
    configure.changeOptions({
      portalId: sourceId,
      moduleId: assets.id,
      fieldId: category.id,
      add: ['Robotics'],
    });
    // A status of Assets, closed, reached from the first one, and leading back to it.
    const firstStatus = configure.choices.statuses(sourceId, assets.id).statuses[0]!;
    configure.choices.changeStatuses({
      portalId: sourceId,
      moduleId: assets.id,
      add: [{ name: 'Audited', color: '#553c9a', closed: true, transitions: [firstStatus.id] }],
    });
    const audited = configure.choices
      .statuses(sourceId, assets.id)
      .statuses.find((status) => status.name === 'Audited')!;
    configure.choices.changeStatuses({
      portalId: sourceId,
      moduleId: assets.id,
      update: [{ id: firstStatus.id, transitions: [...firstStatus.transitions, audited.id] }],
    });
    fields = configure.createField({
      portalId: sourceId,
      moduleId: assets.id,
      type: 'date',
      settings: { ...PLAIN, label: 'Warranty until' },
      layoutId: assetLayouts.find((l) => l.isDefault)!.id,
      sectionId: null,
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    // The mirror reads both portals again, as the app's refresh after a replay does.
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');

    // ---- the plan ------------------------------------------------------------------------
    const source = {
      kind: 'portal' as const,
      portalId: sourceId,
      moduleIds: [contractsId, assets.id],
    };
    const plan = copy.plan(targetId, source);
    const byKey = new Map(plan.items.map((item) => [item.key, item]));
    expect(byKey.get('module:contracts')).toMatchObject({ action: 'create', kind: 'module' });
    expect(byKey.get('layout:contracts/Legal')).toMatchObject({ action: 'create' });
    expect(byKey.get('layout:contracts/Standard')).toMatchObject({ action: 'create' });
    expect(byKey.get('placement:field:contracts/cf_contract_value')).toMatchObject({
      action: 'change',
      summary: 'Place “Contract value” on Legal › Terms',
    });
    expect(byKey.get('module:assets')).toMatchObject({ action: 'alone' });
    expect(byKey.get('field:assets/cf_notes')).toMatchObject({
      action: 'change',
      changes: [
        { setting: 'Description', from: '(none)', to: 'Anything the serial number does not say' },
      ],
    });
    expect(byKey.get('options:assets/cf_category')).toMatchObject({
      action: 'create',
      summary: 'Add option “Robotics” to “Category”',
    });
    const warranty = [...byKey.values()].find(
      (item) => item.module === 'Assets' && item.summary.includes('“Warranty until”'),
    );
    expect(warranty).toMatchObject({ action: 'create', kind: 'field' });
    // The statuses of the new module wait for it to exist (the service gives it its own).
    expect(plan.items.filter((item) => item.action === 'blocked')).toEqual([
      expect.objectContaining({ key: 'statuses:contracts', kind: 'statuses' }),
    ]);
    expect(byKey.get('statuses:assets')).toMatchObject({
      action: 'create',
      summary: 'Add status “Audited” to “Assets”',
    });
    expect(plan.totalCalls).toBe(plan.items.reduce((sum, item) => sum + item.calls, 0));
    expect(plan.calls.find((c) => c.endpoint === 'POST /settings/modules')?.calls).toBe(1);
    expect(plan.minimumMinutes).toBe(0);
    // Making it again gives the same plan: nothing about it is random.
    expect(copy.plan(targetId, source).fingerprint).toBe(plan.fingerprint);

    // A reviewed plan whose target changed meanwhile is refused, and nothing is queued.
    expect(() => copy.apply(targetId, source, 'f'.repeat(64))).toThrow(/plan changed/);
    expect(s.outbox.list()).toEqual([]);

    // ---- apply and replay (the first field create's answer is lost on the way) --------------
    s.outbox.setWorkOffline(true);
    const applied = copy.apply(targetId, source, plan.fingerprint);
    const ops = s.outbox.list();
    expect(applied.queued).toBe(ops.length);
    expect(applied.queued).toBeGreaterThan(8);
    // What is queued already shows: the plan made again has nothing to create.
    expect(applied.plan.counts.create + applied.plan.counts.change).toBe(0);
    let lost = false;
    s.setFault((method, url) => {
      if (!lost && method === 'PUT' && url.pathname.endsWith('/settings/fields')) {
        lost = true;
        return 'lose-answer';
      }
      return 'pass';
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(lost).toBe(true);
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const made = (table: string, column: string, name: string) =>
      s.emulator.state.db
        .prepare(`SELECT count(*) FROM ${table} WHERE ${column} = ?`)
        .pluck()
        .get(name);
    // One in each portal: the lost answer was not followed by a second create.
    expect(made('fields', 'display_name', 'Contract type')).toBe(2);
    expect(made('layouts', 'name', 'Legal')).toBe(2);
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');

    // ---- both portals through the API ------------------------------------------------------
    const wanted = await apiConfiguration(s, sourceId, 'contracts');
    const got = await apiConfiguration(s, targetId, 'contracts');
    expect(got.layouts).toEqual(wanted.layouts);
    expect([...got.fields]).toEqual([...wanted.fields]);
    const assetsWanted = await apiConfiguration(s, sourceId, 'assets');
    const assetsGot = await apiConfiguration(s, targetId, 'assets');
    for (const [apiName, field] of assetsWanted.fields) {
      expect({ apiName, ...(assetsGot.fields.get(apiName) as object) }).toEqual({
        apiName,
        ...(field as object),
      });
    }
    // The statuses of Assets: names, colours, types and transitions (by name) as the source's.
    const statuses = async (portalId: string) => {
      const query = new URLSearchParams({
        module: 'assets',
        field: 'status',
        page: '1',
        per_page: '200',
        index: '1',
        range: '200',
      });
      const listed = await s.call('GET', `/portal/${portalId}/settings/options?${query}`);
      const rows = (
        listed.body as {
          statuses: {
            id: string;
            name: string;
            color: string;
            is_closed_type: boolean;
            transitions: { id: string }[];
          }[];
        }
      ).statuses;
      const nameOf = new Map(rows.map((row) => [String(row.id), row.name]));
      return Object.fromEntries(
        rows.map((row) => [
          row.name,
          {
            color: row.color,
            closed: row.is_closed_type,
            transitions: row.transitions.map((t) => nameOf.get(String(t.id))).sort(),
          },
        ]),
      );
    };
    const sourceStatuses = await statuses(sourceId);
    expect(sourceStatuses.Audited).toEqual({
      color: '#553c9a',
      closed: true,
      transitions: [firstStatus.name],
    });
    expect(
      Object.values(sourceStatuses).some((status) => status.transitions.includes('Audited')),
    ).toBe(true);
    expect(await statuses(targetId)).toEqual(sourceStatuses);

    // The target's default layout of Assets now places the new field, as the source's does.
    const placed = (config: typeof assetsWanted) =>
      config.layouts
        .find((l) => l.isDefault)!
        .sections.flatMap((section) => section.fields)
        .includes('cf_warranty_until');
    expect(placed(assetsWanted)).toBe(true);
    expect(placed(assetsGot)).toBe(true);

    // ---- nothing left to do ------------------------------------------------------------------
    const again = copy.plan(targetId, source);
    expect(again.items.filter((item) => item.action !== 'alone')).toEqual([]);
  });
});
