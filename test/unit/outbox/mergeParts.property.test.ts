/**
 * A compound value changed here and on the service (STYLE.md: the parts not touched are sent back
 * exactly as they were). Two ways to one answer: the replay's decision (compareWithServer, then
 * the PATCH body it builds, applied to the service's value as the spec's `{add, remove}` or as a
 * whole currency) against the result worked out here part by part from the three values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareWithServer } from '../../../src/main/outbox/compareWithServer';
import { mineOverTheirs } from '../../../src/main/outbox/mergeParts';
import { updateBody } from '../../../src/main/outbox/requestBody';
import { resolveFields } from '../../../src/main/outbox/resolveConflict';
import { sameFieldValue } from '../../../src/shared/fieldValues/sameFieldValue';

const types = new Map([
  ['cf_tags', 'multi_select'],
  ['cf_watchers', 'multi_user'],
  ['cf_cost', 'currency'],
]);

const TAGS = ['A', 'B', 'C', 'D', 'E', 'F'];
const tagSet = fc.subarray(TAGS);
/** Base, a change of mine and a change of theirs, each a list of the same universe. */
const threeLists = fc.tuple(tagSet, tagSet, tagSet);

/** The spec's update `[{add, remove}]` applied to a list the way the service applies it. */
function applyDelta(list: string[], body: unknown): string[] {
  const [{ add, remove }] = body as [{ add: string[]; remove: string[] }];
  return [...list.filter((x) => !remove.includes(x)), ...add.filter((x) => !list.includes(x))];
}

/** What both changes leave, item by item: kept unless one side removed it, or added by one. */
function expectedItems(base: string[], mine: string[], theirs: string[]): string[] {
  return TAGS.filter((x) => {
    const removedByMe = base.includes(x) && !mine.includes(x);
    const addedByMe = !base.includes(x) && mine.includes(x);
    return addedByMe || (theirs.includes(x) && !removedByMe);
  });
}

/** What the service holds after the replay (and nothing sent: what it held). */
function replayed(field: string, base: unknown, mine: unknown, theirs: unknown) {
  const compared = compareWithServer({ [field]: { value: mine, base } }, types, () => theirs);
  if (compared.conflicts.length > 0) return { conflict: true as const };
  if (compared.applied.length > 0) return { conflict: false as const, value: theirs, sent: false };
  const body = updateBody(compared.fields, types, compared.send)[field];
  return { conflict: false as const, value: body, sent: true };
}

describe('compound values changed here and there', () => {
  it('a multi-select keeps every item the other side added or removed, and mine', () => {
    fc.assert(
      fc.property(threeLists, ([base, mine, theirs]) => {
        fc.pre(!sameFieldValue('multi_select', base, mine));
        const result = replayed('cf_tags', base, mine, theirs);
        expect(result.conflict).toBe(false);
        if (result.conflict) return;
        const after = result.sent ? applyDelta(theirs, result.value) : theirs;
        expect([...after].sort()).toEqual(expectedItems(base, mine, theirs));
        // Nothing sent twice: after the send, the same check finds it applied.
        expect(replayed('cf_tags', base, mine, after)).toMatchObject({ sent: false });
      }),
    );
  });

  it('a users list the same, by zpuid, keeping the service’s entries as they are', () => {
    const users = (ids: string[]) => ids.map((zpuid) => ({ zpuid, name: `User ${zpuid}` }));
    fc.assert(
      fc.property(threeLists, ([base, mine, theirs]) => {
        fc.pre(!sameFieldValue('multi_select', base, mine));
        const result = replayed('cf_watchers', users(base), users(mine), users(theirs));
        expect(result.conflict).toBe(false);
        if (result.conflict) return;
        const after = result.sent
          ? applyDelta(
              theirs,
              (result.value as [{ add: { zpuid: string }[]; remove: { zpuid: string }[] }]).map(
                ({ add, remove }) => ({
                  add: add.map((u) => u.zpuid),
                  remove: remove.map((u) => u.zpuid),
                }),
              ),
            )
          : theirs;
        expect([...after].sort()).toEqual(expectedItems(base, mine, theirs));
      }),
    );
  });

  const code = fc.constantFrom('USD', 'EUR', 'JPY');
  const amount = fc.constantFrom(1, 2.5, 300);
  const money = fc.record({ currency_code: code, amount });

  it('a currency takes each part from the side that changed it; a part changed both ways is a conflict whose "keep mine" keeps their other part', () => {
    fc.assert(
      fc.property(money, money, money, (base, mine, theirs) => {
        fc.pre(!sameFieldValue('currency', base, mine));
        const part = <K extends 'currency_code' | 'amount'>(k: K) =>
          mine[k] !== base[k] ? mine[k] : theirs[k];
        const clash = (['currency_code', 'amount'] as const).some(
          (k) => mine[k] !== base[k] && theirs[k] !== base[k] && mine[k] !== theirs[k],
        );
        const expected = { currency_code: part('currency_code'), amount: part('amount') };
        const result = replayed('cf_cost', base, mine, theirs);
        expect(result.conflict).toBe(clash);
        if (!result.conflict) {
          expect(result.sent ? result.value : theirs).toMatchObject(expected);
          return;
        }
        // Keep mine: my changed parts over theirs, as the Outbox shows and as it is sent.
        const conflictField = {
          field: 'cf_cost',
          label: 'Cost',
          type: 'currency',
          base,
          mine: mineOverTheirs('currency', base, mine, theirs),
          theirs,
          editable: false,
        };
        expect(conflictField.mine).toMatchObject(expected);
        const { fields } = resolveFields(
          { cf_cost: { value: mine, base } },
          [conflictField],
          [{ field: 'cf_cost', choice: 'mine' }],
        );
        const again = replayed('cf_cost', fields.cf_cost!.base, fields.cf_cost!.value, theirs);
        expect(again.conflict).toBe(false);
        if (!again.conflict) expect(again.value).toMatchObject(expected);
      }),
    );
  });

  it('renders the kept amount under the kept code', () => {
    expect(
      mineOverTheirs(
        'currency',
        { currency_code: 'JPY', formatted_amount: 'JPY 100.00', amount: 100 },
        { currency_code: 'JPY', formatted_amount: 'JPY 77.00', amount: 77 },
        { currency_code: 'EUR', formatted_amount: 'EUR 100.00', amount: 100 },
      ),
    ).toEqual({ currency_code: 'EUR', formatted_amount: 'EUR 77.00', amount: 77 });
  });
});
