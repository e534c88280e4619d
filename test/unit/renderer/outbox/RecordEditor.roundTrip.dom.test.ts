// @vitest-environment happy-dom
/**
 * The round trip of issue 14 through the real record editor (RecordEditor, FieldEditor and its
 * controls over a contract-checked fake engine), with fast-check choosing the values: a form
 * holding a field of every type opened and saved untouched queues nothing; one part of a
 * compound value changed by hand leaves the others byte for byte; text that is not a value never
 * queues and says why next to the field. fieldDraft.property.test.ts runs the same decisions
 * many more times without a DOM.
 */
import fc from 'fast-check';
import { cleanup, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  formatZonedDateTime,
  parseZonedDateTime,
} from '../../../../src/shared/fieldValues/zonedDateTime';
import { useDomTestEnvironment } from '../support/dom';
import { openEditor } from './editorTestKit';
import {
  CODES,
  EDITOR_TYPES,
  decimalNumber,
  designatorOf,
  fieldArb,
  notANumber,
  shownAmount,
  valueArb,
  zone,
} from './fieldValueArbitraries';

useDomTestEnvironment();

/** Each run renders a whole editor: fewer runs than the pure properties, same generators. */
const RUNS = { numRuns: 12 };

/** user-event reads `{` and `[` as keys; doubled they are typed as themselves. */
const literally = (text: string) => text.replace(/[{[]/g, (c) => c + c);

/** An editor of its own for each generated case: the previous case's is unmounted first. */
async function freshEditor(...args: Parameters<typeof openEditor>) {
  cleanup();
  return openEditor(...args);
}

const allFields = fc.tuple(
  ...EDITOR_TYPES.map((type) => fc.tuple(fieldArb(type), valueArb(type, { maxUsers: 60 }))),
);

describe('record editor round trip, every field type at once', () => {
  it(
    'opened and saved without a change: every Save is off, nothing is queued, no message',
    {
      timeout: 90_000,
    },
    async () => {
      await fc.assert(
        fc.asyncProperty(allFields, zone, async (pairs, timeZone) => {
          const fields = pairs.map(([field]) => field);
          const values = Object.fromEntries(pairs.map(([field, value]) => [field.key, value]));
          const editor = await freshEditor(fields, values, timeZone);
          for (const field of fields) {
            const save = editor.saveButton(field.key);
            expect(save.disabled, field.type).toBe(true);
            await editor.user.click(save);
            expect(within(editor.fieldBox(field.key)).queryByRole('alert'), field.type).toBeNull();
          }
          expect(editor.edits()).toEqual([]);
        }),
        RUNS,
      );
    },
  );
});

describe('record editor round trip: one part changed by hand, the others kept', () => {
  const currency = fc.record({
    field: fieldArb('currency'),
    value: valueArb('currency').filter((v) => v !== null) as fc.Arbitrary<Record<string, unknown>>,
    timeZone: zone,
  });

  it('currency: a new amount keeps the code, and how it shows is on screen before Save', async () => {
    await fc.assert(
      fc.asyncProperty(currency, decimalNumber, async ({ field, value, timeZone }, amount) => {
        fc.pre(amount !== value.amount);
        const editor = await freshEditor([field], { [field.key]: value }, timeZone);
        const box = editor.fieldBox(field.key);
        const input = within(box).getByLabelText(field.label);
        await editor.user.clear(input);
        await editor.user.type(input, String(amount));
        const shows = `${String(value.currency_code)} ${shownAmount(amount, field.precision)}`;
        expect(within(box).getByRole('status').textContent).toContain(shows);
        expect(editor.edits()).toEqual([]);
        await editor.user.click(editor.saveButton(field.key));
        const sent = editor.edits()[0]?.[field.key] as Record<string, unknown>;
        expect(sent.currency_code).toBe(value.currency_code);
        expect(sent.amount).toBe(amount);
      }),
      RUNS,
    );
  });

  it('currency: a new code keeps the amount', async () => {
    await fc.assert(
      fc.asyncProperty(currency, fc.constantFrom(...CODES), async (generated, code) => {
        const { field, value, timeZone } = generated;
        fc.pre(code !== value.currency_code);
        const editor = await freshEditor([field], { [field.key]: value }, timeZone);
        const input = within(editor.fieldBox(field.key)).getByLabelText(
          `Currency of ${field.label}`,
        );
        await editor.user.clear(input);
        await editor.user.type(input, code);
        await editor.user.click(editor.saveButton(field.key));
        const sent = editor.edits()[0]?.[field.key] as Record<string, unknown>;
        expect(sent.currency_code).toBe(code);
        expect(JSON.stringify(sent.amount)).toBe(JSON.stringify(value.amount));
      }),
      RUNS,
    );
  });

  it('multi_user: removing one user sends every other one exactly as it was', async () => {
    const users = fc.record({
      field: fieldArb('multi_user'),
      value: valueArb('multi_user', { maxUsers: 60 }).filter(
        (v) => Array.isArray(v) && v.length > 1,
      ) as fc.Arbitrary<Array<{ zpuid: string; name: string }>>,
      timeZone: zone,
      pick: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(users, async ({ field, value, timeZone, pick }) => {
        const gone = value[pick % value.length]!;
        const editor = await freshEditor([field], { [field.key]: value }, timeZone);
        const box = editor.fieldBox(field.key);
        await editor.user.click(
          within(box).getByRole('button', { name: `Remove ${gone.name} from ${field.label}` }),
        );
        await editor.user.click(editor.saveButton(field.key));
        const sent = editor.edits()[0]?.[field.key];
        expect(JSON.stringify(sent)).toBe(JSON.stringify(value.filter((u) => u !== gone)));
      }),
      RUNS,
    );
  });

  it('multi_select: adding one option sends every option held exactly as it was, then it', async () => {
    const options = fc.record({
      field: fieldArb('multi_select'),
      value: valueArb('multi_select').map((v) => (Array.isArray(v) ? v : [])) as fc.Arbitrary<
        string[]
      >,
      timeZone: zone,
      pick: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(options, async ({ field, value, timeZone, pick }) => {
        const addable = field.options.filter((o) => !value.includes(o.name));
        fc.pre(addable.length > 0);
        const added = addable[pick % addable.length]!.name;
        const editor = await freshEditor([field], { [field.key]: value }, timeZone);
        const menu = within(editor.fieldBox(field.key)).getByLabelText(field.label);
        await editor.user.selectOptions(menu, added);
        await editor.user.click(editor.saveButton(field.key));
        expect(editor.edits()).toEqual([{ [field.key]: [...value, added] }]);
      }),
      RUNS,
    );
  });

  it("timestamp: a new date and time typed in the portal's zone keeps the value's offset", async () => {
    const stamps = fc.record({
      field: fieldArb('timestamp'),
      value: valueArb('timestamp').filter((v) => v !== null) as fc.Arbitrary<string>,
      timeZone: zone,
      instant: fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 0, 1) }),
    });
    await fc.assert(
      fc.asyncProperty(stamps, async ({ field, value, timeZone, instant }) => {
        const text = formatZonedDateTime(Math.floor(instant / 60_000) * 60_000, timeZone);
        fc.pre(text !== formatZonedDateTime(Date.parse(value), timeZone));
        const editor = await freshEditor([field], { [field.key]: value }, timeZone);
        const input = within(editor.fieldBox(field.key)).getByLabelText(field.label, {
          exact: false,
          selector: 'input',
        });
        await editor.user.clear(input);
        await editor.user.type(input, text);
        await editor.user.click(editor.saveButton(field.key));
        const sent = editor.edits()[0]?.[field.key] as string;
        expect(designatorOf(sent)).toBe(designatorOf(value));
        expect(Date.parse(sent)).toBe(parseZonedDateTime(text, timeZone));
      }),
      RUNS,
    );
  });
});

describe('record editor round trip: text that is not a value', () => {
  for (const type of ['number', 'decimal', 'percentage', 'currency']) {
    it(`${type}: never queues, and says why next to the field`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fieldArb(type),
          valueArb(type).filter((v) => v !== null),
          notANumber.filter((text) => text !== ''),
          zone,
          async (field, value, text, timeZone) => {
            const editor = await freshEditor([field], { [field.key]: value }, timeZone);
            const box = editor.fieldBox(field.key);
            const input = within(box).getByLabelText(field.label);
            await editor.user.clear(input);
            await editor.user.type(input, literally(text));
            await editor.user.click(editor.saveButton(field.key));
            expect(editor.edits()).toEqual([]);
            expect(editor.saveButton(field.key).disabled).toBe(true);
            const message = within(box).getByRole('alert');
            expect(message.textContent).toMatch(/Nothing is saved/);
            expect(input.getAttribute('aria-describedby')).toBe(message.id);
          },
        ),
        RUNS,
      );
    });
  }

  it('date: text that is no real date never queues, and says why next to the field', async () => {
    const badDates = fc.constantFrom('2023-02-29', '2024-13-01', '2024-04-31', 'abc', '12/31/2024');
    await fc.assert(
      fc.asyncProperty(
        fieldArb('date'),
        valueArb('date').filter((v) => v !== null),
        badDates,
        zone,
        async (field, value, text, timeZone) => {
          const editor = await freshEditor([field], { [field.key]: value }, timeZone);
          const box = editor.fieldBox(field.key);
          const input = within(box).getByLabelText(field.label);
          await editor.user.clear(input);
          await editor.user.type(input, text);
          await editor.user.click(editor.saveButton(field.key));
          expect(editor.edits()).toEqual([]);
          expect(within(box).getByRole('alert').textContent).toMatch(/No complete date is entered/);
        },
      ),
      RUNS,
    );
  });
});
