/**
 * Property: whatever option changes are queued on a pick list and a multi-select (renames, two
 * options swapping names in one change, removals, adds, moves), with pending edits holding
 * options by the names the queue gives them, the mirror's lists show each record's values as
 * the Configure view's own overlay of the same operations names them (configure/optionOps.ts,
 * overlayOptions, written apart from the lists' relabel), a removed option cleared; the filter's
 * option choices are those options; and the mirror's filter SQL lists exactly the rows the
 * filter language's evaluator finds among the records as shown: a pick list filtered by the
 * name it shows (a new name finds the records the mirror holds under the old one; an old name
 * no option shows finds none), a multi-select by option id, an option removed leaving it empty.
 */
import fc from 'fast-check';
import { naturalSortSqlValue } from '@portaldesk/portal-api/domain/naturalOrder';
import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  evaluate,
  type Filter,
  type FilterCriterion,
} from '@portaldesk/portal-api/filter';
import { paramFields } from '../../../../src/main/configure/layoutOps';
import { optionOpAction, overlayOptions } from '../../../../src/main/configure/optionOps';
import { OutboxRepository } from '../../../../src/main/outbox/outboxRepository';
import { RecordsReader } from '../../../../src/main/records/recordsReader';
import { filterUsers } from '../../../../src/main/store/mirror/moduleContext';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { recordFilterSetup } from '../../../../src/main/store/mirror/recordFilterSetup';
import type { ConfigOption, OptionAction } from '../../../../src/shared/ipc/areas/configure';
import { filterFacts } from './filterFacts';
import { FIELDS, makeRecord, mirroredPortal, MODULE, NOW, PORTAL, STATUSES, TAGS } from './fixture';

const { store, mirror } = mirroredPortal();
const CATEGORIES: [string, string][] = [
  ['4001', 'Hardware'],
  ['4002', 'Peripheral'],
  ['4003', 'Network'],
];
mirror.metadata.replaceFieldOptions(
  PORTAL,
  'f4',
  CATEGORIES.map(([valueId, value], position) => ({
    kind: 'custom_option' as const,
    valueId,
    value,
    layoutId: null,
    position,
  })),
);
const RECORDS: MirrorRecord[] = Array.from({ length: 60 }, (_, i) => makeRecord(i, 11));
mirror.records.upsertRecords(RECORDS);
const repo = new OutboxRepository(store.db, () => NOW);
const reader = new RecordsReader(store.db, mirror);

/** The two choice fields: id, api name, the mirror's options. */
const CHOICE_FIELDS = [
  { id: 'f4', apiName: 'cf_category', multi: false, mirrored: CATEGORIES },
  { id: 'f5', apiName: 'cf_tags', multi: true, mirrored: Object.entries(TAGS) },
] as const;
const mirroredOf = (field: (typeof CHOICE_FIELDS)[number]): ConfigOption[] =>
  field.mirrored.map(([id, name]) => ({ id, name, records: 0, localOnly: false, pending: [] }));

type Step =
  | { kind: 'rename'; field: number; pick: number; name: string }
  | { kind: 'swap'; field: number; pick: number; other: number }
  | { kind: 'remove'; field: number; pick: number }
  | { kind: 'add'; field: number; name: string }
  | { kind: 'move'; field: number; pick: number; position: number };

// New names, names other options hold in the mirror (an old name taken over), and case changes.
const NAMES = ['Renamed', 'Hardware', 'network', 'Critical', 'LEASED', 'ΟΔΟΣ', 'a_b%c'];
const field = fc.nat(1);
const pick = fc.nat(5);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('rename' as const),
      field,
      pick,
      name: fc.constantFrom(...NAMES),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('swap' as const), field, pick, other: pick }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), field, pick }) },
  fc.record({ kind: fc.constant('add' as const), field, name: fc.constantFrom(...NAMES) }),
  fc.record({
    kind: fc.constant('move' as const),
    field,
    pick,
    position: fc.integer({ min: 1, max: 4 }),
  }),
);

const FILTER_FIELDS = recordFilterSetup(FIELDS, STATUSES, []).fields;
const TYPES = new Map(FIELDS.map((f) => [f.apiName, f.fieldType]));
const scope = { portalId: PORTAL, moduleId: MODULE };

/** A condition on one of the two fields, its values among old names, new names and option ids. */
const criterion: fc.Arbitrary<FilterCriterion> = fc.oneof(
  fc.record({
    field_name: fc.constant('cf_category'),
    criteria_condition: fc.constantFrom('is', 'is_not'),
    value: fc.array(
      fc.constantFrom(...NAMES, ...CATEGORIES.map(([, name]) => name), 'HARDWARE', 'renamed'),
      { minLength: 1, maxLength: 2 },
    ),
  }),
  fc.record({
    field_name: fc.constantFrom('cf_category', 'cf_tags'),
    criteria_condition: fc.constantFrom('is_empty', 'is_not_empty'),
  }),
  fc.record({
    field_name: fc.constant('cf_tags'),
    criteria_condition: fc.constantFrom('is', 'is_not'),
    value: fc.subarray(Object.keys(TAGS), { minLength: 1 }),
  }),
);
const filter: fc.Arbitrary<Filter> = fc
  .tuple(fc.array(criterion, { minLength: 1, maxLength: 2 }), fc.constantFrom('and', 'or'))
  .map(([criteria, join]) => ({
    criteria,
    pattern: criteria.map((_, i) => String(i + 1)).join(` ${join} `),
  }));

/** Pending edits: a record and, per field, a pick among the options shown then (or none). */
const edits = fc.array(fc.record({ record: fc.nat(RECORDS.length - 1), field, pick: fc.nat(6) }), {
  maxLength: 8,
});
/** Records made here: a pick of a category and a bit set of tags among the options shown then. */
const creates = fc.array(fc.record({ category: fc.nat(6), tags: fc.nat(63) }), { maxLength: 4 });

describe('lists show options as queued option changes leave them, and filter so', () => {
  it('for any queued option changes and pending edits, as the Configure view names them', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 8 }),
        edits,
        creates,
        fc.array(filter, { minLength: 1, maxLength: 4 }),
        (steps, edited, created, filters) => {
          store.db.exec(
            'DELETE FROM outbox_ops; DELETE FROM record_edits; DELETE FROM records WHERE local_only = 1',
          );
          let added = 0;
          const shownOf = (f: (typeof CHOICE_FIELDS)[number]) =>
            overlayOptions(
              mirroredOf(f),
              repo
                .opsOfRecord(PORTAL, `layouts:${MODULE}`)
                .filter((op) => op.fields.field_id?.value === f.id),
            );
          for (const s of steps) {
            const f = CHOICE_FIELDS[s.field]!;
            const shown = shownOf(f);
            const insert = (action: OptionAction, values: Record<string, unknown>) =>
              repo.insertOp({
                ...scope,
                recordId: `layouts:${MODULE}`,
                kind: 'config',
                action: optionOpAction(action),
                fields: paramFields({ field_id: f.id, field_label: f.apiName, ...values }),
              });
            if (s.kind === 'add') {
              const id = `tmp-o-${String(++added).padStart(16, '0')}`;
              if (!shown.some((o) => o.name === s.name)) {
                insert('addOptions', { options: [{ id, name: s.name }] });
              }
              continue;
            }
            if (shown.length === 0) continue;
            const picked = shown[s.pick % shown.length]!;
            const was = (options: ConfigOption[]) =>
              Object.fromEntries(options.map((o) => [o.id, o.name]));
            if (s.kind === 'rename') {
              // The service refuses two options of one name; so does the Configure view.
              if (shown.some((o) => o.name === s.name)) continue;
              insert('renameOptions', {
                options: [{ id: picked.id, name: s.name }],
                was: was([picked]),
              });
            } else if (s.kind === 'swap') {
              const other = shown[s.other % shown.length]!;
              if (other.id === picked.id) continue;
              insert('renameOptions', {
                options: [
                  { id: picked.id, name: other.name },
                  { id: other.id, name: picked.name },
                ],
                was: was([picked, other]),
              });
            } else if (s.kind === 'remove') {
              insert('removeOptions', { options: [{ id: picked.id, name: picked.name }] });
            } else {
              insert('moveOption', {
                options: [{ id: picked.id, name: picked.name }],
                position: s.position,
              });
            }
          }
          const shown = CHOICE_FIELDS.map(shownOf);
          // Edits name options as the editor offers them: the names the queue leaves.
          const pending = new Map<string, Map<string, unknown>>();
          for (const e of edited) {
            const f = CHOICE_FIELDS[e.field]!;
            const options = shown[e.field]!;
            const chosen = options[e.pick];
            const value = f.multi
              ? options.filter((_, i) => (e.pick >> i) % 2 === 1).map((o) => o.name)
              : (chosen?.name ?? null);
            const id = RECORDS[e.record]!.id;
            const fields = pending.get(id) ?? new Map<string, unknown>();
            fields.set(f.apiName, value);
            pending.set(id, fields);
          }
          for (const [id, fields] of pending) {
            mirror.localEdits.writeOverlay(
              PORTAL,
              id,
              new Map(
                [...fields].map(([name, value]) => [
                  name,
                  { value, base: null, editedAt: new Date(NOW).toISOString() },
                ]),
              ),
            );
          }

          // Records made here hold options by the names the queue leaves (their creates follow it).
          const made = created.map((c, i): MirrorRecord => {
            const custom: Record<string, unknown> = {};
            const category = shown[0]![c.category];
            if (category) custom.cf_category = category.name;
            custom.cf_tags = shown[1]!.filter((_, k) => (c.tags >> k) % 2 === 1).map((o) => o.name);
            return { ...RECORDS[0]!, id: `local-${i}`, name: `Made here ${i}`, custom };
          });
          for (const record of made) {
            mirror.localEdits.insertLocalRecord(
              PORTAL,
              mirror.metadata.moduleKey(PORTAL, MODULE)!,
              record.id,
              record.layoutId,
              {
                name: record.name,
                description: record.description,
                statusId: record.statusId,
                isClosed: record.isClosed,
                isExternal: record.isExternal,
                custom: record.custom,
              },
              new Date(NOW).toISOString(),
            );
          }

          // The records as the user should see them: each server copy's option by the name the
          // Configure view gives its id (none: removed), the pending edits over them.
          const nameNow = CHOICE_FIELDS.map((f, i) => {
            const byId = new Map(shown[i]!.map((o) => [o.id, o.name]));
            return new Map(f.mirrored.map(([id, name]) => [name, byId.get(id) ?? null]));
          });
          const expected = RECORDS.map((record): MirrorRecord => {
            const custom = { ...record.custom };
            const category = custom.cf_category;
            if (typeof category === 'string' && nameNow[0]!.has(category)) {
              custom.cf_category = nameNow[0]!.get(category);
            }
            if (Array.isArray(custom.cf_tags)) {
              custom.cf_tags = (custom.cf_tags as unknown[])
                .map((item) =>
                  typeof item === 'string' && nameNow[1]!.has(item) ? nameNow[1]!.get(item) : item,
                )
                .filter((item) => item !== null);
            }
            for (const [name, value] of pending.get(record.id) ?? []) custom[name] = value;
            return { ...record, custom };
          }).concat(made);

          const rows = new Map(
            mirror.query
              .queryRecords({ ...scope, offset: 0, limit: 1000 })
              .rows.map((r) => [r.id, r]),
          );
          const view = mirror.query.openView(scope, ['name', 'cf_category', 'cf_tags']);
          const exported = new Map(view.read(0, view.total).map((r) => [r.id, r]));
          for (const record of expected) {
            for (const apiName of ['cf_category', 'cf_tags']) {
              const want = record.custom[apiName] ?? null;
              expect(rows.get(record.id)!.custom[apiName] ?? null).toEqual(want);
              expect(exported.get(record.id)!.custom[apiName] ?? null).toEqual(want);
            }
          }
          expect(reader.detail(PORTAL, expected[0]!.id).record.custom).toEqual(expected[0]!.custom);
          const columns = reader.columns(PORTAL, MODULE).fields;
          expect(columns.find((c) => c.key === 'cf_category')!.options).toEqual(
            shown[0]!.map((o) => ({ id: o.id, name: o.name })),
          );
          // A multi-select's options added here have temporary ids: no filter value.
          expect(columns.find((c) => c.key === 'cf_tags')!.options).toEqual(
            shown[1]!.filter((o) => !o.localOnly).map((o) => ({ id: o.id, name: o.name })),
          );

          // Sorted by the pick list: in the order of the names shown (natural order, empty last
          // both ways, ties by id), not the names the server copies hold.
          const bytes = (text: string) => Buffer.from(text, 'utf8');
          for (const descending of [false, true]) {
            const sign = descending ? -1 : 1;
            const keyOf = (record: MirrorRecord) => naturalSortSqlValue(record.custom.cf_category);
            const want = [...expected]
              .sort((a, b) => {
                const [ka, kb] = [keyOf(a), keyOf(b)];
                if (ka === null || kb === null) {
                  if (ka !== kb) return ka === null ? 1 : -1;
                } else {
                  const byKey = Buffer.compare(bytes(ka), bytes(kb));
                  if (byKey !== 0) return sign * byKey;
                }
                return sign * Buffer.compare(bytes(a.id), bytes(b.id));
              })
              .map((record) => record.id);
            const sort = { field: 'cf_category', descending };
            const got = mirror.query
              .queryRecords({ ...scope, offset: 0, limit: 1000, sort })
              .rows.map((row) => row.id);
            expect(got, JSON.stringify(sort)).toEqual(want);
            const sortedView = mirror.query.openView({ ...scope, sort }, ['name']);
            expect(sortedView.read(0, sortedView.total).map((row) => row.id)).toEqual(want);
          }

          // Filters: the SQL's rows are the evaluator's among the records as shown.
          const tagId = new Map(shown[1]!.map((o) => [o.name, o.id]));
          const closedIds = new Set(STATUSES.filter((s) => s.isClosedType).map((s) => s.id));
          for (const f of filters) {
            const compiled = compileFilter(f, FILTER_FIELDS, {
              now: NOW,
              timeZone: 'Asia/Kolkata',
              weekStartDay: 1,
              users: filterUsers(mirror.metadata.users(PORTAL)),
            });
            const want = expected
              .filter((record) =>
                evaluate(
                  compiled,
                  filterFacts(record, {
                    closedIds,
                    typeOf: (apiName) => TYPES.get(apiName),
                    optionId: (name) => tagId.get(name),
                  }),
                  () => record.statusId !== null && closedIds.has(record.statusId),
                ),
              )
              .map((record) => record.id)
              .sort();
            const got = mirror.query
              .queryRecords({ ...scope, offset: 0, limit: 1000, filter: JSON.stringify(f) })
              .rows.map((row) => row.id)
              .sort();
            expect(got, JSON.stringify(f)).toEqual(want);
          }
        },
      ),
      {
        numRuns: 200,
        examples: [
          // Two options removed, a third renamed to one's old name, held by a record made here:
          // it holds the third option under that name, not the removed one (not empty).
          [
            [
              { kind: 'remove', field: 1, pick: 0 },
              { kind: 'remove', field: 1, pick: 0 },
              { kind: 'rename', field: 1, pick: 0, name: 'Critical' },
            ],
            [],
            [{ category: 0, tags: 63 }],
            [
              {
                criteria: [{ field_name: 'cf_tags', criteria_condition: 'is_empty' }],
                pattern: '1',
              },
            ],
          ],
        ],
      },
    );
  });
});
