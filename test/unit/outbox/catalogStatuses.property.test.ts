/**
 * The record editor's statuses (overlayCatalogStatuses) and the Configure view's
 * (configure/statusOps.ts, overlayStatuses) are two readings of the same queue: for any mirrored
 * statuses and queued renames, recolourings, closed-type changes and removals (some refused by
 * the service), both show the same statuses, in the same names, colours and types. And a queued
 * record change's status is named as they leave it (statusValueNamed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlayCatalogStatuses, statusValueNamed } from '../../../src/main/outbox/catalogOverlay';
import type { OpFields } from '../../../src/main/outbox/outboxTypes';
import { overlayStatuses } from '../../../src/main/configure/statusOps';
import { outboxOp } from './outboxOp';

const ids = ['s1', 's2', 's3', 's4'];
const name = fc.constantFrom('Open', 'Closed', 'Review', 'Done', 'open', 'Blocked');
const change = fc.record({
  action: fc.constantFrom('status.updateStatuses', 'status.removeStatuses'),
  state: fc.constantFrom('pending', 'failed', 'conflict', 'sending'),
  id: fc.constantFrom(...ids, 'tmp-st-0'),
  name,
  color: fc.option(fc.constantFrom('#ff0000', '#00ff00'), { nil: undefined }),
  closed: fc.option(fc.boolean(), { nil: undefined }),
});

const params = (values: Record<string, unknown>): OpFields =>
  Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value, base: null }]));

describe('the editor’s statuses and the Configure view’s', () => {
  it('agree for any queue of status changes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, fc.boolean()), { minLength: 4, maxLength: 4 }),
        fc.array(change, { maxLength: 8 }),
        (mirrored, changes) => {
          const statuses = mirrored.map(([n, closed], i) => ({
            id: ids[i]!,
            name: n,
            color: '#0000ff',
            isClosedType: closed ? 1 : 0,
            isDefault: i === 0 ? 1 : 0,
          }));
          const ops = changes.map((c) =>
            outboxOp({
              kind: 'config',
              action: c.action,
              state: c.state as never,
              recordId: 'layouts:2',
              fields: params({
                field_id: 'f',
                statuses: [
                  c.action === 'status.updateStatuses'
                    ? { id: c.id, name: c.name, color: c.color, closed: c.closed }
                    : { id: c.id, name: c.name },
                ],
              }),
            }),
          );
          const editor = overlayCatalogStatuses(statuses, ops);
          const view = overlayStatuses(
            statuses.map((s) => ({
              id: s.id,
              name: s.name,
              color: s.color,
              closed: s.isClosedType === 1,
              isDefault: s.isDefault === 1,
              transitions: [],
              records: 0,
              timelineUses: 0,
              localOnly: false,
              pending: [],
            })),
            ops,
          );
          const sorted = <T extends { id: string }>(list: T[]) =>
            [...list].sort((a, b) => a.id.localeCompare(b.id));
          expect(sorted(editor).map((s) => [s.id, s.name, s.color, s.isClosedType === 1])).toEqual(
            sorted(view).map((s) => [s.id, s.name, s.color, s.closed]),
          );
          for (const status of editor) {
            const kept = { id: status.id, name: 'as chosen', color: null, is_closed_type: false };
            expect(statusValueNamed(kept, editor)).toEqual({
              id: status.id,
              name: status.name,
              color: status.color,
              is_closed_type: status.isClosedType === 1,
            });
          }
        },
      ),
    );
  });
});
