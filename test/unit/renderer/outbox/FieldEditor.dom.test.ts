// @vitest-environment happy-dom
/**
 * The record editor's fields as a person uses them (issue 14, items 2 and 3): a compound value is
 * changed part by part and keeps the parts not touched; rounding shows before anything is saved;
 * text that is not a value blocks Save with a message next to the field and queues nothing;
 * emptying a field takes the Clear button.
 */
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDomTestEnvironment } from '../support/dom';
import { editableField, openEditor } from './editorTestKit';

useDomTestEnvironment();

const cost = editableField('currency', { key: 'cf_cost', label: 'Cost', currencyCode: 'USD' });
const quantity = editableField('number', { key: 'cf_quantity', label: 'Quantity' });
const INR_COST = { currency_code: 'INR', formatted_amount: 'INR 10,862.62', amount: 10862.62 };

describe('record editor: a currency amount', () => {
  it('keeps the currency code when only the amount changes', async () => {
    const editor = await openEditor([cost], { cf_cost: INR_COST });
    const amount = within(editor.fieldBox('cf_cost')).getByLabelText('Cost');
    await editor.user.clear(amount);
    await editor.user.type(amount, '12.345');
    await editor.user.click(editor.saveButton('cf_cost'));
    expect(editor.edits()).toHaveLength(1);
    const sent = editor.edits()[0]?.cf_cost as Record<string, unknown>;
    expect(sent.currency_code).toBe('INR');
    expect(Number(sent.amount)).toBe(12.345);
  });

  it("shows an amount rounded to the field's precision before it is saved", async () => {
    const editor = await openEditor([cost], { cf_cost: INR_COST });
    const box = editor.fieldBox('cf_cost');
    const amount = within(box).getByLabelText('Cost');
    await editor.user.clear(amount);
    await editor.user.type(amount, '12.345');
    expect(editor.edits()).toEqual([]);
    // The amount as it will show, and why it differs from what was typed.
    expect(box.textContent).toContain('INR 12.35');
    expect(box.textContent).toMatch(/2 decimals/);
  });
});

describe('record editor: the parts of a value not touched', () => {
  it('changing the currency code keeps the amount; rounding is applied only by the button', async () => {
    const editor = await openEditor([cost], { cf_cost: INR_COST });
    const box = editor.fieldBox('cf_cost');
    const code = within(box).getByLabelText('Currency of Cost');
    await editor.user.clear(code);
    await editor.user.type(code, 'EUR');
    expect(box.textContent).toContain('Will show as EUR 10862.62');
    await editor.user.click(editor.saveButton('cf_cost'));
    expect(editor.edits()[0]?.cf_cost).toMatchObject({ currency_code: 'EUR', amount: 10862.62 });

    const amount = within(box).getByLabelText('Cost');
    await editor.user.clear(amount);
    await editor.user.type(amount, '1.005');
    await editor.user.click(within(box).getByRole('button', { name: 'Use 1.01' }));
    expect((amount as HTMLInputElement).value).toBe('1.01');
    expect(box.textContent).not.toMatch(/decimals/);
  });

  it('removing one user keeps the others as they were, even one the field no longer offers', async () => {
    const watchers = editableField('multi_user', {
      key: 'cf_watchers',
      label: 'Watchers',
      users: [
        { zpuid: '100', name: 'Ann' },
        { zpuid: '101', name: 'Bo' },
      ],
      usersRestricted: true,
    });
    const held = [
      { zpuid: '7', name: 'Former colleague', email: 'former@example.com' },
      { zpuid: '100', name: 'Ann' },
      { zpuid: '101', name: 'Bo' },
    ];
    const editor = await openEditor([watchers], { cf_watchers: held });
    const box = editor.fieldBox('cf_watchers');
    await editor.user.click(within(box).getByRole('button', { name: 'Remove Ann from Watchers' }));
    await editor.user.click(editor.saveButton('cf_watchers'));
    expect(editor.edits()).toEqual([{ cf_watchers: [held[0], held[2]] }]);
  });

  it('a pick list shows the option it holds even when the layout no longer offers it', async () => {
    const category = editableField('pick_list', {
      key: 'cf_category',
      label: 'Category',
      options: [{ id: '1', name: 'Hardware' }],
    });
    const editor = await openEditor([category], { cf_category: 'Retired kit' });
    const select = within(editor.fieldBox('cf_category')).getByLabelText('Category');
    expect((select as HTMLSelectElement).selectedOptions[0]?.textContent).toMatch(/^Retired kit/);
    expect(editor.saveButton('cf_category').disabled).toBe(true);
  });

  it('a time stamp changed in the portal zone keeps its own offset', async () => {
    const audit = editableField('timestamp', { key: 'cf_audit', label: 'Last audit' });
    // 08:00 at +03:00 is 10:30 in Kolkata.
    const editor = await openEditor([audit], { cf_audit: '2025-01-06T08:00:00+03:00' });
    const input = within(editor.fieldBox('cf_audit')).getByLabelText(/Last audit/, {
      selector: 'input',
    });
    expect((input as HTMLInputElement).value).toBe('2025-01-06T10:30');
    await editor.user.clear(input);
    await editor.user.type(input, '2025-01-06T11:30');
    await editor.user.click(editor.saveButton('cf_audit'));
    expect(editor.edits()).toEqual([{ cf_audit: '2025-01-06T09:00:00+03:00' }]);
  });
});

describe('record editor: text that is not a number', () => {
  it('"abc" in a number field blocks Save with a message next to the field and queues nothing', async () => {
    const editor = await openEditor([quantity], { cf_quantity: 42 });
    const box = editor.fieldBox('cf_quantity');
    const input = within(box).getByLabelText('Quantity');
    await editor.user.clear(input);
    await editor.user.type(input, 'abc');
    await editor.user.click(editor.saveButton('cf_quantity'));
    expect(editor.edits()).toEqual([]);
    expect(editor.saveButton('cf_quantity').disabled).toBe(true);
    expect(within(box).getByRole('alert').textContent).toMatch(/"abc" is not a whole number/);
  });
});

describe('record editor: emptying a field is explicit', () => {
  it('an emptied box blocks Save and says how to empty the field; Clear then Save empties it', async () => {
    const editor = await openEditor([quantity], { cf_quantity: 42 });
    const box = editor.fieldBox('cf_quantity');
    const input = within(box).getByLabelText('Quantity');
    await editor.user.clear(input);
    expect(editor.saveButton('cf_quantity').disabled).toBe(true);
    const message = within(box).getByRole('alert');
    expect(message.textContent).toMatch(/No whole number is entered.*keeps 42.*press Clear/);
    // The message is the box's description, so a screen reader reads it with the field.
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(message.id);

    await editor.user.click(within(box).getByRole('button', { name: 'Clear Quantity' }));
    expect(box.textContent).toMatch(/Quantity will be emptied when you save/);
    await editor.user.click(editor.saveButton('cf_quantity'));
    expect(editor.edits()).toEqual([{ cf_quantity: null }]);
  });

  it('a mandatory field offers no Clear', async () => {
    const required = editableField('number', { key: 'cf_units', label: 'Units', mandatory: true });
    const editor = await openEditor([required], { cf_units: 3 });
    expect(within(editor.fieldBox('cf_units')).queryByRole('button', { name: /Clear/ })).toBeNull();
  });

  it('a date that is not a real date blocks Save with a message next to the field', async () => {
    const due = editableField('date', { key: 'cf_due', label: 'Due' });
    const editor = await openEditor([due], { cf_due: '2025-01-06' });
    const box = editor.fieldBox('cf_due');
    const input = within(box).getByLabelText('Due');
    await editor.user.clear(input);
    // The browser keeps a date box empty until its text is a real date.
    await editor.user.type(input, '2023-02-30');
    await editor.user.click(editor.saveButton('cf_due'));
    expect(editor.edits()).toEqual([]);
    expect(within(box).getByRole('alert').textContent).toMatch(
      /No complete date is entered.*Due keeps 2025-01-06/,
    );
  });
});

describe('record editor: a status added in the Outbox and not sent yet', () => {
  const REASON =
    '“Review” is added in the Outbox and not sent yet: the service gives it its id when it is sent, and a record can be set to it after that.';
  const status = editableField('status', {
    key: 'status',
    label: 'Status',
    statuses: [
      { id: '11', name: 'Open', color: null, isClosedType: false },
      { id: '12', name: 'Done', color: null, isClosedType: true },
    ],
    waitingStatuses: [{ id: 'tmp-st-0123456789abcdef', name: 'Review', reason: REASON }],
  });

  it('is shown, not selectable, with why, next to the picker; the others are chosen as before', async () => {
    const editor = await openEditor([status], {
      status: { id: '11', name: 'Open', color: null, is_closed_type: false },
    });
    const box = editor.fieldBox('status');
    const picker = within(box).getByLabelText<HTMLSelectElement>('Status');
    const waiting = within(picker).getByRole<HTMLOptionElement>('option', {
      name: 'Review (not sent yet)',
    });
    expect(waiting.disabled).toBe(true);
    // The words are the picker's description, so a screen reader reads them with it.
    const note = document.getElementById(picker.getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toBe(REASON);
    expect(box.textContent).toContain(REASON);

    await editor.user.selectOptions(picker, '12');
    await editor.user.click(editor.saveButton('status'));
    expect(editor.edits()).toEqual([{ status: expect.objectContaining({ id: '12' }) }]);
  });
});

describe('record editor: by the keyboard', () => {
  it('Undo, Clear and Save give the keyboard back to the field’s box, not the page’s body', async () => {
    const editor = await openEditor([quantity], { cf_quantity: 42 });
    const box = editor.fieldBox('cf_quantity');
    const input = within(box).getByLabelText('Quantity');
    await editor.user.clear(input);
    await editor.user.type(input, '7');
    // Undo leaves with the change it undoes.
    within(box).getByRole('button', { name: 'Undo' }).focus();
    await editor.user.keyboard('{Enter}');
    expect(within(box).queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(document.activeElement).toBe(input);
    // Clear leaves once pressed.
    within(box).getByRole('button', { name: 'Clear Quantity' }).focus();
    await editor.user.keyboard('{Enter}');
    expect(within(box).queryByRole('button', { name: 'Clear Quantity' })).toBeNull();
    expect(document.activeElement).toBe(input);
    // Save is disabled while it runs and once saved.
    editor.saveButton('cf_quantity').focus();
    await editor.user.keyboard('{Enter}');
    expect(editor.edits()).toEqual([{ cf_quantity: null }]);
    expect(document.activeElement).toBe(input);
  });
});
