/**
 * A status renamed (or recoloured) offline, not delivered yet: everything the records workspace
 * reads names it as the queue leaves it, the same as the record editor does (one overlay,
 * catalogOverlay.ts). Before, the lists, the table's export rows, the status filter's choices,
 * the record panel and the overview's per-status counts named it by the mirror's old name until
 * the rename was delivered, while the editor already showed the new one. Filtering by status goes
 * by id, so a rename changes no list's rows.
 */
import { describe, expect, it } from 'vitest';
import { RecordsReader } from '../../../src/main/records/recordsReader';
import { MirrorOverviewReader } from '../../../src/main/overview/mirrorOverview';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('a status renamed offline, not delivered', () => {
  it('is named by its new name in lists, filter choices, the record panel and the overview', async () => {
    const s = await outboxSession({ records: 60 });
    s.outbox.setWorkOffline(true);
    const configure = configureOn(s);
    const reader = new RecordsReader(s.store.db, s.mirror);
    const overview = new MirrorOverviewReader(s.store.db);
    const scope = { portalId: s.portalId, moduleId: s.module.id };
    const list = (filter?: string) =>
      s.mirror.query.queryRecords({ ...scope, offset: 0, limit: 1000, filter });
    const rows = list().rows;
    const used = rows.find((row) => row.status !== null)!.status!;
    const byStatus = JSON.stringify({
      criteria: [{ field_name: 'status', criteria_condition: 'is', value: [used.id] }],
      pattern: '1',
    });
    const before = list(byStatus).rows.map((row) => row.id);
    expect(before.length).toBeGreaterThan(0);

    configure.choices.changeStatuses({
      ...scope,
      update: [{ id: used.id, name: 'Awaiting parts', color: '#aa5500' }],
    });
    const editorName = (recordId: string) =>
      (s.outbox.form(s.portalId, s.module.id, recordId).values.status as { name: string }).name;

    // The list's rows, by the same overlay the editor reads.
    const named = list().rows.filter((row) => row.status?.id === used.id);
    expect(named.length).toBe(before.length);
    for (const row of named) {
      expect(row.status).toMatchObject({ name: 'Awaiting parts', color: '#aa5500' });
      expect(editorName(row.id)).toBe('Awaiting parts');
    }
    // Filtering by status still goes by its id: the same rows.
    expect(list(byStatus).rows.map((row) => row.id)).toEqual(before);
    // A whole list read for an export (its columns only) names it so too.
    const view = s.mirror.query.openView(scope, ['name', 'status']);
    const exported = view.read(0, view.total).filter((row) => row.status?.id === used.id);
    expect(exported.map((row) => row.status?.name)).toEqual(named.map(() => 'Awaiting parts'));
    // The status filter's choices and the record panel.
    const choice = reader.columns(s.portalId, s.module.id).statuses.find((c) => c.id === used.id);
    expect(choice).toMatchObject({ name: 'Awaiting parts', color: '#aa5500' });
    expect(reader.detail(s.portalId, named[0]!.id).record.status?.name).toBe('Awaiting parts');
    // The overview's records per status.
    const counted = overview
      .read(s.portalId, Date.now())!
      .modules.find((m) => m.moduleId === s.module.id)!
      .statuses.find((status) => status.statusId === used.id);
    expect(counted).toMatchObject({ name: 'Awaiting parts', records: before.length });

    // Discarded, the old name is back everywhere.
    const op = s.outbox.list().find((entry) => entry.kind === 'config')!;
    s.outbox.discard(op.id);
    expect(list().rows.find((row) => row.status?.id === used.id)!.status!.name).toBe(used.name);
    expect(
      reader.columns(s.portalId, s.module.id).statuses.find((c) => c.id === used.id)!.name,
    ).toBe(used.name);
  });
});
