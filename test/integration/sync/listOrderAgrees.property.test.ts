/**
 * Property: a module's records sorted by the service (the emulator's `sort_by`) and by the mirror
 * after a sync come in the same order (issue 19: "the same order in the emulator, so local and
 * server lists still agree"), for generated names, descriptions and text custom fields full of
 * digit runs (values beyond 10 digits, leading zeros, next to '#', '-', spaces, letters to fold)
 * and currency values of several codes whose amounts overlap, in both directions.
 *
 * Text is well-formed Unicode: a lone surrogate reaches the emulator's SQL function changed
 * (naturalOrder.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naturalCompare } from '@portaldesk/portal-api/domain/naturalOrder';
import { syncSession } from './syncSession';

const run = fc.oneof(
  fc.stringMatching(/^[0-9]{1,4}$/),
  fc.stringMatching(/^0{1,3}[0-9]{1,2}$/),
  fc.stringMatching(/^[1-9][0-9]{9,14}$/),
);
const piece = fc.oneof(
  run,
  fc.constantFrom('#', '-', ' ', 'Item ', 'item ', 'ITEM', 'SN-', 'Ä', 'ä', 'x', 'ß'),
);
const text = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
const cost = fc.record({
  code: fc.constantFrom('USD', 'EUR', 'INR'),
  amount: fc.integer({ min: 0, max: 8 }).map((n) => n * 12.5),
});
const values = fc.array(
  fc.record({
    name: text,
    description: text,
    serial: fc.option(text, { freq: 4 }),
    cost: fc.option(cost, { freq: 4 }),
  }),
  { minLength: 12, maxLength: 12 },
);

const SORTS = ['name', 'description', 'cf_serial_number', 'cf_cost'];

describe('the service and the mirror sort a module alike', () => {
  it('for names, text and currencies full of numbers, both ways', async () => {
    await fc.assert(
      fc.asyncProperty(values, async (generated) => {
        const s = await syncSession({ emulator: { records: 40 } });
        const portalId = s.emulator.portals[0]!;
        const db = s.emulator.state.db;
        const moduleId = db
          .prepare('SELECT id FROM modules WHERE portal_id = ? AND api_name = ?')
          .pluck()
          .get(Number(portalId), 'assets') as number;
        const rows = db
          .prepare('SELECT id, custom FROM entities WHERE module_id = ? ORDER BY id')
          .all(moduleId) as { id: number; custom: string }[];
        // Values repeat across records: equal keys are ordered by id on both sides.
        const write = db.prepare(
          'UPDATE entities SET name = ?, description = ?, custom = ? WHERE id = ?',
        );
        rows.forEach((row, i) => {
          const v = generated[i % generated.length]!;
          const custom = JSON.parse(row.custom) as Record<string, unknown>;
          delete custom.cf_serial_number;
          delete custom.cf_cost;
          if (v.serial !== null) custom.cf_serial_number = v.serial;
          if (v.cost !== null) {
            custom.cf_cost = {
              currency_code: v.cost.code,
              formatted_amount: `${v.cost.code} ${v.cost.amount.toFixed(2)}`,
              amount: v.cost.amount,
            };
          }
          write.run(v.name, v.description, JSON.stringify(custom), row.id);
        });
        const result = await s.engine.syncAccount(s.account).done;
        expect(result.state).toBe('done');
        const mirrorModule = s.mirror.metadata
          .modules(portalId)
          .find((m) => m.apiName === 'assets')!;

        for (const field of SORTS) {
          for (const descending of [false, true]) {
            const sortBy = `${descending ? 'DESC' : 'ASC'}(${field})`;
            const server: string[] = [];
            for (let page = 1; ; page++) {
              const reply = await s.call(
                'GET',
                `/portal/${portalId}/projects/assets/entities?page=${page}&per_page=200&sort_by=${encodeURIComponent(sortBy)}`,
              );
              expect(reply.status).toBe(200);
              server.push(...(reply.body.entities as { id: string }[]).map((e) => e.id));
              if (!reply.body.page_info.has_next_page) break;
            }
            const local = s.mirror.query
              .queryRecords({
                portalId,
                moduleId: mirrorModule.id,
                sort: { field, descending },
                offset: 0,
                limit: 1000,
              })
              .rows.map((row) => row.id);
            expect({ sortBy, local }).toEqual({ sortBy, local: server });
          }
        }
        // The names really are in natural order, not only the same on both sides.
        const names = s.mirror.query
          .queryRecords({
            portalId,
            moduleId: mirrorModule.id,
            sort: { field: 'name', descending: false },
            offset: 0,
            limit: 1000,
          })
          .rows.map((row) => row.name);
        expect(names).toEqual([...names].sort(naturalCompare));
      }),
      { numRuns: 4 },
    );
  });
});
