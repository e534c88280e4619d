/**
 * Property: whatever status changes are queued (renames, colours, closed or open, moves,
 * removals pending or refused, adds), what the records workspace reads names each status as the
 * Configure view's own overlay of the same operations does (configure/statusOps.ts,
 * overlayStatuses, written apart): the lists' rows, the rows an export reads, the status filter's
 * choices and the overview's statuses. And the lists' rows are those of the mirror without the
 * changes, for a filter by status id and by closed status: a filter names statuses by id, and
 * which statuses there are and their closed types stay the mirror's until the changes are
 * delivered.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paramFields } from '../../../../src/main/configure/layoutOps';
import { overlayStatuses, statusOpAction } from '../../../../src/main/configure/statusOps';
import { OutboxRepository } from '../../../../src/main/outbox/outboxRepository';
import { OverviewCounts } from '../../../../src/main/overview/overviewCounts';
import { RecordsReader } from '../../../../src/main/records/recordsReader';
import type { ConfigStatus, StatusAction } from '../../../../src/shared/ipc/areas/configureChoices';
import { makeRecord, mirroredPortal, MODULE, NOW, PORTAL, STATUSES } from './fixture';

const { store, mirror } = mirroredPortal();
mirror.records.upsertRecords(Array.from({ length: 60 }, (_, i) => makeRecord(i, 7)));
const repo = new OutboxRepository(store.db, () => NOW);
const reader = new RecordsReader(store.db, mirror);
const overview = new OverviewCounts(store.db);

type Step =
  | { kind: 'rename'; pick: number; name: string; color: string | undefined }
  | { kind: 'close'; pick: number; closed: boolean }
  | { kind: 'move'; pick: number; position: number }
  | { kind: 'remove'; pick: number; refused: boolean }
  | { kind: 'add'; name: string };

const name = fc.constantFrom('Open', 'Parked', 'Awaiting parts', 'Done', 'ΟΔΟΣ', 'in review');
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('rename' as const),
      pick: fc.nat(10),
      name,
      color: fc.option(fc.constantFrom('#aa5500', '#2a64d6'), { nil: undefined }),
    }),
  },
  fc.record({ kind: fc.constant('close' as const), pick: fc.nat(10), closed: fc.boolean() }),
  fc.record({
    kind: fc.constant('move' as const),
    pick: fc.nat(10),
    position: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(10), refused: fc.boolean() }),
  fc.record({ kind: fc.constant('add' as const), name }),
);

const mirrored: ConfigStatus[] = STATUSES.map((status) => ({
  id: status.id,
  name: status.name,
  color: status.color ?? '',
  closed: status.isClosedType,
  isDefault: status.isDefault,
  transitions: [...status.transitions],
  records: 0,
  timelineUses: 0,
  localOnly: false,
  pending: [],
}));

const scope = { portalId: PORTAL, moduleId: MODULE };
const listed = (filter?: string) =>
  mirror.query
    .queryRecords({ ...scope, offset: 0, limit: 1000, ...(filter ? { filter } : {}) })
    .rows.map((row) => row.id);
const filterOf = (condition: string, value?: string[]) =>
  JSON.stringify({
    criteria: [
      { field_name: 'status', criteria_condition: condition, ...(value ? { value } : {}) },
    ],
    pattern: '1',
  });
const FILTERS = [
  undefined,
  ...STATUSES.map((status) => filterOf('is', [status.id])),
  filterOf('all_closed'),
  filterOf('custom_condition', ['${ALL_OPEN}']),
];
const unchanged = FILTERS.map((filter) => listed(filter));

describe('what the records workspace reads names statuses as the Configure view does', () => {
  it('for any queued status changes, its rows unchanged', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), (steps) => {
        store.db.exec('DELETE FROM outbox_ops');
        let shown = mirrored;
        let added = 0;
        for (const s of steps) {
          const insert = (action: StatusAction, values: Record<string, unknown>) => {
            const seq = repo.insertOp({
              ...scope,
              recordId: `layouts:${MODULE}`,
              kind: 'config',
              action: statusOpAction(action),
              fields: paramFields({ field_id: 'f2', field_label: 'Status', ...values }),
            });
            if (s.kind === 'remove' && s.refused) {
              store.db
                .prepare("UPDATE outbox_ops SET state = 'failed', error = 'In use' WHERE seq = ?")
                .run(seq);
            }
          };
          // Each step picks among the statuses as the view shows them then, as a user would.
          const picked = shown[('pick' in s ? s.pick : 0) % shown.length]!;
          if (s.kind === 'add') {
            const id = `tmp-st-${String(++added).padStart(16, '0')}`;
            insert('addStatuses', { statuses: [{ id, name: s.name, transitions: [] }] });
          } else if (s.kind === 'rename') {
            const item = { id: picked.id, name: s.name, ...(s.color ? { color: s.color } : {}) };
            insert('updateStatuses', { statuses: [item], was: { [picked.id]: picked } });
          } else if (s.kind === 'close') {
            const item = { id: picked.id, name: picked.name, closed: s.closed };
            insert('updateStatuses', { statuses: [item], was: { [picked.id]: picked } });
          } else if (s.kind === 'move') {
            insert('moveStatus', {
              statuses: [{ id: picked.id, name: picked.name }],
              position: s.position,
            });
          } else {
            insert('removeStatuses', { statuses: [{ id: picked.id, name: picked.name }] });
          }
          shown = overlayStatuses(mirrored, repo.opsOfRecord(PORTAL, `layouts:${MODULE}`));
        }
        const ops = repo.opsOfRecord(PORTAL, `layouts:${MODULE}`);
        // Renamed and recoloured as the view shows them; a status whose removal is queued is
        // named by the renames before it (the view no longer shows it).
        const viewed = overlayStatuses(
          mirrored,
          ops.filter((op) => op.action !== statusOpAction('removeStatuses')),
        );
        const expected = new Map(viewed.map((status) => [status.id, status]));
        const named = (id: string) => ({
          name: expected.get(id)!.name,
          color: expected.get(id)!.color,
        });

        const rows = mirror.query.queryRecords({ ...scope, offset: 0, limit: 1000 }).rows;
        for (const row of rows) {
          if (row.status) expect(row.status).toMatchObject(named(row.status.id));
        }
        const view = mirror.query.openView(scope, ['name', 'status']);
        for (const row of view.read(0, view.total)) {
          if (row.status) expect(row.status).toMatchObject(named(row.status.id));
        }
        const choices = reader.columns(PORTAL, MODULE).statuses;
        expect(choices.map((status) => status.id)).toEqual(STATUSES.map((status) => status.id));
        for (const choice of choices) expect(choice).toMatchObject(named(choice.id));
        for (const status of overview.statusNames(PORTAL)) {
          expect(status).toMatchObject(named(status.id));
        }
        // The same rows as without the changes, whatever the filter on statuses.
        expect(FILTERS.map((filter) => listed(filter))).toEqual(unchanged);
      }),
      { numRuns: 60 },
    );
  });
});
