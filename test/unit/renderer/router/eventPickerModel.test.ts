/** The event picker's search and groups (issue 19), against the plain reading of the same rules. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  groupState,
  pickerEvents,
  pickerGroups,
  toggleGroup,
} from '../../../../src/renderer/src/features/router/eventPickerModel';
import { customPublisher, suitePublisher } from './routerFixtures';

const publishers = [
  suitePublisher('Demo', ['cm_tickets', 'cm_invoices', 'cm_Orders']),
  customPublisher('Shop', ['order_created', 'Ticket_Closed', 'order_Create']),
  suitePublisher('Second portal', ['cm_tickets']),
];
const events = pickerEvents(publishers);
const ids = events.map((event) => event.id);

describe('the event picker model', () => {
  it('shows what matches every word in name, scope or publisher (any case), grouped in order', () => {
    const word = fc.constantFrom(
      'tick',
      'CREATE',
      'shop',
      'o',
      'portal',
      'demo',
      'xyz',
      'reject',
      '',
    );
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 3 }),
        fc.subarray(ids),
        fc.boolean(),
        (words, chosen, selectedOnly) => {
          const selected = new Set(chosen);
          const groups = pickerGroups(events, ` ${words.join('  ')} `, selected, selectedOnly);
          const expected = events.filter(
            (event) =>
              (!selectedOnly || selected.has(event.id)) &&
              words.every((w) =>
                [event.apiName, event.scope ?? '', event.publisherName].some((field) =>
                  field.toLowerCase().includes(w.toLowerCase()),
                ),
              ),
          );
          // The same events, in the same order, publisher after publisher.
          expect(groups.flatMap((group) => group.events)).toEqual(expected);
          for (const group of groups) {
            expect(new Set(group.events.map((e) => e.publisherId))).toEqual(
              new Set([group.publisherId]),
            );
            for (const scope of group.scopes) {
              expect(scope.events.every((e) => e.scope === scope.scope)).toBe(true);
            }
            expect(new Set(group.scopes.map((s) => s.scope)).size).toBe(group.scopes.length);
            // The scopes hold the group's events, each once, in the group's order within a scope.
            const inScopes = group.scopes.flatMap((s) => s.events);
            expect(new Set(inScopes)).toEqual(new Set(group.events));
            expect(inScopes).toHaveLength(group.events.length);
            for (const scope of group.scopes) {
              expect(scope.events).toEqual(group.events.filter((e) => e.scope === scope.scope));
            }
          }
        },
      ),
    );
  });

  it('a group toggles all it shows and nothing else, keeping the order of earlier picks', () => {
    fc.assert(
      fc.property(fc.subarray(ids), fc.subarray(ids, { minLength: 1 }), (chosen, groupIds) => {
        const group = events.filter((event) => groupIds.includes(event.id));
        const before = groupState(group, new Set(chosen));
        const after = toggleGroup(chosen, group);
        const others = (list: string[]) => list.filter((id) => !groupIds.includes(id));
        expect(others(after)).toEqual(others(chosen));
        expect(groupState(group, new Set(after))).toBe(before === 'all' ? 'none' : 'all');
        expect(after.slice(0, chosen.length).filter((id) => chosen.includes(id))).toEqual(
          before === 'all' ? others(chosen) : chosen,
        );
        expect(new Set(after).size).toBe(after.length);
      }),
    );
  });

  it('a suite event is grouped under its scope, a custom event under none', () => {
    const [demo, shop] = pickerGroups(events, 'order', new Set(), false);
    expect(demo!.scopes.map((s) => [s.scope, s.events.map((e) => e.apiName)])).toEqual([
      ['Create', ['cm_Orders_Create']],
      ['Update', ['cm_Orders_Update']],
      ['Delete', ['cm_Orders_Delete']],
      ['Approve', ['cm_Orders_Approve']],
      ['Reject', ['cm_Orders_Reject']],
    ]);
    // "order_Create" of a custom publisher ends like a scope but has none.
    expect(shop!.scopes).toEqual([{ scope: null, events: shop!.events }]);
  });
});
