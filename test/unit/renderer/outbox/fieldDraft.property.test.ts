/**
 * The editor's round trip, as properties over every field type (issue 14): what Save would do
 * (`decideSave`) with a draft made from any value of any type, with one part of a compound value
 * changed, and with text that is not a value. The engine's own check (`validateFieldValue` with
 * the current value) is held to the same properties, since it validates again before queueing.
 * RecordEditor.roundTrip.dom.test.ts drives the same through the real component.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideSave,
  draftOf,
  itemKey,
  sameDraft,
  type Draft,
} from '../../../../src/renderer/src/features/outbox/fieldDraft';
import type { EditableField } from '../../../../src/shared/ipc/areas/outbox';
import { validateFieldValue } from '../../../../src/shared/fieldValues/validateFieldValue';
import {
  formatZonedDateTime,
  parseZonedDateTime,
} from '../../../../src/shared/fieldValues/zonedDateTime';
import {
  CODES,
  EDITOR_TYPES,
  PEOPLE,
  decimalNumber,
  designatorOf,
  fieldArb,
  notANumber,
  shownAmount,
  valueArb,
  zone,
} from './fieldValueArbitraries';

const RUNS = { numRuns: 150 };

function ready(decision: ReturnType<typeof decideSave>): unknown {
  if (decision.kind !== 'ready') {
    throw new Error(`expected a value to save, got ${JSON.stringify(decision)}`);
  }
  return decision.input;
}

/** The engine, given what the editor sends: it must take it and keep it as sent. */
function engineKeeps(field: EditableField, input: unknown, current: unknown, timeZone: string) {
  const check = validateFieldValue(field, input, { timeZone, current });
  expect(check).toEqual({ ok: true, value: input });
}

describe('editor round trip: opening and saving without a change', () => {
  for (const type of EDITOR_TYPES) {
    it(`${type}: queues nothing, and the engine takes the value back as it is`, () => {
      fc.assert(
        fc.property(fieldArb(type), valueArb(type), zone, (field, value, timeZone) => {
          const draft = draftOf(field, value, timeZone);
          expect(decideSave(field, value, draft, timeZone)).toEqual({ kind: 'unchanged' });
          // Saved anyway (another client, a retry): the same value comes back byte for byte.
          const check = validateFieldValue(field, value, { timeZone, current: value });
          if (check.ok) expect(check.value).toBe(value);
        }),
        RUNS,
      );
    });
  }
});

describe('editor round trip: one part of a compound value changed, the others kept', () => {
  const currency = fc.record({
    field: fieldArb('currency'),
    value: valueArb('currency').filter((v) => v !== null) as fc.Arbitrary<Record<string, unknown>>,
    timeZone: zone,
  });

  it('currency: a new amount keeps the code; the amount shows rounded before saving', () => {
    fc.assert(
      fc.property(currency, decimalNumber, ({ field, value, timeZone }, amount) => {
        fc.pre(amount !== value.amount);
        const draft = draftOf(field, value, timeZone) as Extract<Draft, { kind: 'currency' }>;
        const decision = decideSave(field, value, { ...draft, amount: String(amount) }, timeZone);
        const input = ready(decision) as Record<string, unknown>;
        expect(input.currency_code).toBe(value.currency_code);
        expect(input.amount).toBe(amount);
        const shows = `${String(value.currency_code)} ${shownAmount(amount, field.precision)}`;
        expect(decision).toMatchObject({ shows });
        // More decimals than the field shows: said before saving, with the rounded amount.
        expect(decision.kind === 'ready' && decision.rounding !== null).toBe(
          Number(amount.toFixed(field.precision)) !== amount,
        );
        engineKeeps(field, input, value, timeZone);
      }),
      RUNS,
    );
  });

  it('currency: a new code keeps the amount', () => {
    fc.assert(
      fc.property(currency, fc.constantFrom(...CODES), ({ field, value, timeZone }, code) => {
        fc.pre(code !== value.currency_code);
        const draft = draftOf(field, value, timeZone) as Extract<Draft, { kind: 'currency' }>;
        const input = ready(decideSave(field, value, { ...draft, code }, timeZone)) as Record<
          string,
          unknown
        >;
        expect(input.currency_code).toBe(code);
        expect(Object.is(input.amount, value.amount)).toBe(true);
        engineKeeps(field, input, value, timeZone);
      }),
      RUNS,
    );
  });

  for (const type of ['multi_select', 'multi_user']) {
    const list = fc.record({
      field: fieldArb(type),
      value: valueArb(type).filter((v) => Array.isArray(v) && v.length > 0) as fc.Arbitrary<
        unknown[]
      >,
      timeZone: zone,
    });

    it(`${type}: removing one item keeps every other item as it was, in order`, () => {
      fc.assert(
        fc.property(list, fc.nat(), ({ field, value, timeZone }, pick) => {
          const index = pick % value.length;
          const draft = draftOf(field, value, timeZone) as Extract<Draft, { kind: 'items' }>;
          const items = draft.items.filter((_, i) => i !== index);
          const input = ready(decideSave(field, value, { kind: 'items', items }, timeZone));
          const others = value.filter((_, i) => i !== index);
          // The last item removed empties the field (removing is explicit).
          if (others.length === 0) {
            expect(input).toBeNull();
            return;
          }
          expect(input).toHaveLength(others.length);
          // The very same items: not rebuilt, not renamed, nothing dropped.
          others.forEach((item, i) => expect((input as unknown[])[i]).toBe(item));
          engineKeeps(field, input, value, timeZone);
        }),
        RUNS,
      );
    });

    it(`${type}: adding one item keeps every item held, then adds it`, () => {
      fc.assert(
        fc.property(list, fc.nat(), ({ field, value, timeZone }, pick) => {
          const offered =
            type === 'multi_user'
              ? field.users.map((u) => ({ key: u.zpuid, label: u.name ?? u.zpuid }))
              : field.options.map((o) => ({ key: o.name, label: o.name }));
          const held = new Set(value.map((item) => itemKey(type, item)));
          const addable = offered.filter((o) => !held.has(o.key));
          fc.pre(addable.length > 0 && value.length < 500);
          const added = addable[pick % addable.length]!;
          const draft = draftOf(field, value, timeZone) as Extract<Draft, { kind: 'items' }>;
          const items = [...draft.items, added];
          const input = ready(decideSave(field, value, { kind: 'items', items }, timeZone));
          value.forEach((item, i) => expect((input as unknown[])[i]).toBe(item));
          expect(itemKey(type, (input as unknown[])[value.length])).toBe(added.key);
        }),
        RUNS,
      );
    });
  }

  it('multi_user: 500 users, one removed, 499 kept as they were', () => {
    const field = { ...fieldOfType('multi_user'), usersRestricted: true };
    const value = PEOPLE.slice(0, 500).map((p) => ({ ...p }));
    const draft = draftOf(field, value, 'UTC') as Extract<Draft, { kind: 'items' }>;
    const items = draft.items.filter((item) => item.key !== value[250]!.zpuid);
    const input = ready(decideSave(field, value, { kind: 'items', items }, 'UTC')) as unknown[];
    expect(input).toEqual(value.filter((_, i) => i !== 250));
    input.forEach((item, i) => expect(item).toBe(value[i < 250 ? i : i + 1]));
  });

  it("timestamp: a new date and time keeps the value's offset", () => {
    fc.assert(
      fc.property(
        fieldArb('timestamp'),
        valueArb('timestamp').filter((v) => v !== null) as fc.Arbitrary<string>,
        zone,
        fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 0, 1) }),
        (field, value, timeZone, instant) => {
          const text = formatZonedDateTime(Math.floor(instant / 60_000) * 60_000, timeZone);
          fc.pre(text !== formatZonedDateTime(Date.parse(value), timeZone));
          const input = ready(decideSave(field, value, { kind: 'text', text }, timeZone));
          expect(designatorOf(input)).toBe(designatorOf(value));
          expect(Date.parse(input as string)).toBe(parseZonedDateTime(text, timeZone));
          engineKeeps(field, input, value, timeZone);
        },
      ),
      RUNS,
    );
  });
});

function fieldOfType(type: string): EditableField {
  return fc.sample(fieldArb(type), 1)[0]!;
}

describe('editor round trip: text that is not a value never saves', () => {
  for (const type of ['number', 'decimal', 'percentage']) {
    it(`${type}: blocks Save with a message that names the text and what is kept`, () => {
      fc.assert(
        fc.property(fieldArb(type), valueArb(type), notANumber, zone, (field, value, text, tz) => {
          const initial = draftOf(field, value, tz);
          fc.pre(!(initial.kind === 'text' && initial.text === text));
          const decision = decideSave(field, value, { kind: 'text', text }, tz);
          expect(decision.kind).toBe('invalid');
          const message = decision.kind === 'invalid' ? decision.message : '';
          expect(message).toContain(text.trim() === '' ? 'is entered' : `"${text}"`);
          expect(message).toMatch(/Nothing is saved: Field \w+ (keeps|stays empty)/);
        }),
        RUNS,
      );
    });
  }

  it('currency: an amount that is not a number blocks Save, whatever the code', () => {
    fc.assert(
      fc.property(
        fieldArb('currency'),
        valueArb('currency'),
        notANumber,
        fc.constantFrom(...CODES),
        zone,
        (field, value, amount, code, tz) => {
          fc.pre(!(value === null && amount === ''));
          const decision = decideSave(field, value, { kind: 'currency', code, amount }, tz);
          expect(decision.kind).toBe('invalid');
        },
      ),
      RUNS,
    );
  });

  for (const type of ['date', 'time', 'timestamp']) {
    it(`${type}: an empty box (a date input's answer to bad text) blocks Save, never clears`, () => {
      fc.assert(
        fc.property(fieldArb(type), valueArb(type), zone, (field, value, tz) => {
          fc.pre(value !== null);
          const decision = decideSave(field, value, { kind: 'text', text: '' }, tz);
          expect(decision).toMatchObject({ kind: 'invalid' });
          expect(decision.kind === 'invalid' && decision.message).toMatch(
            /No complete .* is entered.*press Clear/,
          );
        }),
        RUNS,
      );
    });

    it(`${type}: text the rules refuse blocks Save`, () => {
      fc.assert(
        fc.property(
          fieldArb(type),
          valueArb(type),
          fc.string({ maxLength: 20 }),
          zone,
          (field, value, text, tz) => {
            const draft: Draft = { kind: 'text', text };
            fc.pre(!sameDraft(draft, draftOf(field, value, tz)));
            fc.pre(!validateFieldValue(field, text, { timeZone: tz, current: value }).ok);
            expect(decideSave(field, value, draft, tz).kind).toBe('invalid');
          },
        ),
        RUNS,
      );
    });
  }
});

describe('a number a double cannot hold', () => {
  it('blocks Save in words instead of becoming a clear or a zero', () => {
    const timeZone = 'UTC';
    const decimal = { ...fieldOfType('decimal') };
    for (const text of ['1e400', '-1e400', '1e-400']) {
      const decision = decideSave(decimal, 34, { kind: 'text', text }, timeZone);
      expect(decision, text).toMatchObject({
        kind: 'invalid',
        message: expect.stringMatching(/too (large|small) a number/),
      });
      const cost = { ...fieldOfType('currency') };
      const amount = decideSave(
        cost,
        { currency_code: 'JPY', formatted_amount: 'JPY 12', amount: 12 },
        { kind: 'currency', code: 'JPY', amount: text },
        timeZone,
      );
      expect(amount, text).toMatchObject({ kind: 'invalid' });
    }
  });
});
