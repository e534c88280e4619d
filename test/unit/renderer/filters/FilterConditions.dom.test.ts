// @vitest-environment happy-dom
/**
 * The filter builder used as a person uses it, one condition group at a time: pick a field and a
 * condition from the menus, type or pick the values, and check the exact `filter` value the panel
 * shows, the records table asks the engine for, and "Copy as API filter" puts on the clipboard.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { builderConditions } from '../../../../src/renderer/src/features/filters/filterDraft';
import { TYPING_APPLY_MS } from '../../../../src/renderer/src/features/filters/FilterBuilder';
import type { FieldKind } from '@portaldesk/portal-api/filter';
import { pass, useDomTestEnvironment } from '../support/dom';
import { COLUMNS } from '../support/recordsWorkspace';
import {
  addCriterion,
  button,
  criterionHint,
  criterionProblem,
  explanation,
  filterText,
  lastListed,
  listbox,
  openFilterPanel,
  optionLabels,
  select,
  shownFilter,
} from './filterTestKit';

useDomTestEnvironment();

describe('filter builder: fields and their condition groups', () => {
  it('offers only filterable fields, and for each field the conditions of its kind', async () => {
    const { user } = await openFilterPanel();
    await user.click(button('+ Add criterion'));
    const filterable = COLUMNS.fields.filter((f) => f.filterKind !== null);
    expect(optionLabels(select('Field of criterion 1'))).toEqual(filterable.map((f) => f.label));
    expect(optionLabels(select('Field of criterion 1'))).not.toContain('Notes');

    for (const field of filterable) {
      await user.selectOptions(select('Field of criterion 1'), field.label);
      const kind = field.filterKind as FieldKind;
      const offered = optionLabels(select('Condition of criterion 1'));
      expect(offered, field.label).toEqual(builderConditions(kind).map((c) => c.label));
      // Aliases (`before` for `less_than`) would show the same words twice.
      expect(new Set(offered).size, field.label).toBe(offered.length);
    }
    // A few a person looks for, by group.
    await user.selectOptions(select('Field of criterion 1'), 'Due');
    expect(optionLabels(select('Condition of criterion 1'))).toEqual(
      expect.arrayContaining(['is between', 'is overdue', 'is unscheduled', 'is this week']),
    );
    expect(optionLabels(select('Condition of criterion 1'))).not.toContain('is empty');
    await user.selectOptions(select('Field of criterion 1'), 'Owner');
    expect(optionLabels(select('Condition of criterion 1'))).toEqual(
      expect.arrayContaining(['is a direct report of', 'is a deactivated user']),
    );
    await user.selectOptions(select('Field of criterion 1'), 'Tags');
    expect(optionLabels(select('Condition of criterion 1'))).toEqual([
      'includes',
      'does not include',
      'is empty',
      'is not empty',
    ]);
  });
});

describe('filter builder: text', () => {
  it('applies "contains" once typing pauses, not on every key', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Name', 'contains');
    await user.type(screen.getByRole('textbox', { name: 'Value of criterion 1' }), 'dell');
    const expected = filterText(
      [{ field_name: 'name', criteria_condition: 'contains', value: ['dell'] }],
      '1',
    );
    expect(shownFilter()).toBe(expected);
    expect(explanation()).toBe('Name contains "dell"');
    await pass(TYPING_APPLY_MS - 1);
    expect(lastListed(ws)).toBeUndefined();
    await pass(1);
    expect(lastListed(ws)).toBe(expected);
    // One new list for the whole word, none for "d", "de", "del".
    expect(ws.listedFilters()).toEqual([undefined, expected]);
  });

  it('takes several values for "is", removes one, and none for "is empty"', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Name', 'is');
    await user.type(screen.getByRole('textbox', { name: 'Value of criterion 1' }), 'Dell');
    await user.click(button('+ value'));
    await user.type(screen.getByRole('textbox', { name: 'Value 2 of criterion 1' }), 'HP');
    await pass(TYPING_APPLY_MS);
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'name', criteria_condition: 'is', value: ['Dell', 'HP'] }], '1'),
    );
    expect(explanation()).toBe('Name is any of "Dell", "HP"');

    await user.click(button('Remove value 1 of criterion 1'));
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'name', criteria_condition: 'is', value: ['HP'] }], '1'),
    );

    await user.selectOptions(select('Condition of criterion 1'), 'is empty');
    expect(screen.queryByRole('textbox', { name: /of criterion 1$/ })).toBeNull();
    // No `value` at all for a condition that takes none.
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'name', criteria_condition: 'is_empty' }], '1'),
    );
  });
});

describe('filter builder: numbers', () => {
  it('gives two boxes for "between", explains wrong values in place and applies none of them', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Cost', 'is between');
    const from = screen.getByRole('textbox', { name: 'From of criterion 1' });
    const to = screen.getByRole('textbox', { name: 'To of criterion 1' });
    expect(from.getAttribute('inputmode')).toBe('decimal');

    await user.type(from, 'ten');
    await user.type(to, '20');
    await pass(TYPING_APPLY_MS);
    expect(criterionProblem(1)).toBe(
      'First value "ten" is not a number; use digits, e.g. "42" or "-3.5"',
    );
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(from.getAttribute('aria-describedby')).toBe(
      screen.getByTestId('criterion-1').querySelector('[role="alert"]')?.id,
    );
    expect(shownFilter()).toBeUndefined();
    expect(lastListed(ws)).toBeUndefined();

    await user.clear(from);
    await user.type(from, '30');
    await pass(TYPING_APPLY_MS);
    expect(criterionProblem(1)).toBe(
      'Values: "between" needs the smaller value first, got 30 then 20',
    );
    expect(lastListed(ws)).toBeUndefined();

    await user.clear(from);
    await user.type(from, '10');
    await pass(TYPING_APPLY_MS);
    expect(criterionProblem(1)).toBeUndefined();
    expect(explanation()).toBe('Cost is between 10 and 20');
    expect(lastListed(ws)).toBe(
      filterText(
        [{ field_name: 'cf_cost', criteria_condition: 'between', value: ['10', '20'] }],
        '1',
      ),
    );
  });
});

describe('filter builder: dates and date-times', () => {
  it('picks "between" dates with two date pickers, applied as soon as they are picked', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Due', 'is between');
    const from = screen.getByLabelText('From of criterion 1');
    const to = screen.getByLabelText('To of criterion 1');
    expect([from.getAttribute('type'), to.getAttribute('type')]).toEqual(['date', 'date']);
    await user.type(from, '2026-01-01');
    await user.type(to, '2026-01-31');
    // A picked date applies at once: no pause for typing.
    expect(lastListed(ws)).toBe(
      filterText(
        [
          {
            field_name: 'cf_due',
            criteria_condition: 'between',
            value: ['2026-01-01', '2026-01-31'],
          },
        ],
        '1',
      ),
    );
    expect(explanation()).toBe('Due is between 2026-01-01 and 2026-01-31');

    await user.selectOptions(select('Condition of criterion 1'), 'is overdue');
    expect(screen.queryByLabelText(/(From|To|Value) of criterion 1/)).toBeNull();
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'cf_due', criteria_condition: 'overdue' }], '1'),
    );
  });

  it('filters a date-time by day, and by a date preset', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Created', 'is on or after');
    const day = screen.getByLabelText('Value of criterion 1');
    expect(day.getAttribute('type')).toBe('date');
    await user.type(day, '2026-03-01');
    expect(lastListed(ws)).toBe(
      filterText(
        [
          {
            field_name: 'created_time',
            criteria_condition: 'greater_than_or_equal',
            value: ['2026-03-01'],
          },
        ],
        '1',
      ),
    );
    await user.selectOptions(select('Condition of criterion 1'), 'is this month');
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'created_time', criteria_condition: 'this_month' }], '1'),
    );
    expect(explanation()).toBe('Created is this month');
  });
});

describe('filter builder: check boxes', () => {
  it('picks checked or unchecked by name and sends true or false', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Insured');
    const values = listbox('Values of criterion 1');
    expect(optionLabels(values)).toEqual(['Yes (checked)', 'No (unchecked)']);
    await user.selectOptions(values, 'Yes (checked)');
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'cf_insured', criteria_condition: 'is', value: ['true'] }], '1'),
    );
    // The picked value stays when the condition turns round.
    await user.selectOptions(select('Condition of criterion 1'), 'is not');
    expect(lastListed(ws)).toBe(
      filterText(
        [{ field_name: 'cf_insured', criteria_condition: 'is_not', value: ['true'] }],
        '1',
      ),
    );
  });
});

describe('filter builder: statuses', () => {
  it('picks statuses by name and sends their ids; the status presets need no value', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Status');
    const values = listbox('Values of criterion 1');
    expect(optionLabels(values)).toEqual(['Open', 'Approved']);
    await user.selectOptions(values, ['Open', 'Approved']);
    expect(lastListed(ws)).toBe(
      filterText(
        [{ field_name: 'status', criteria_condition: 'is', value: ['2001', '2003'] }],
        '1',
      ),
    );
    await user.deselectOptions(listbox('Values of criterion 1'), 'Approved');
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'status', criteria_condition: 'is', value: ['2001'] }], '1'),
    );

    await user.selectOptions(select('Condition of criterion 1'), 'is the preset');
    const preset = select('Value of criterion 1');
    expect(optionLabels(preset)).toEqual(['All open statuses', 'All closed statuses']);
    await user.selectOptions(preset, 'All closed statuses');
    expect(lastListed(ws)).toBe(
      filterText(
        [
          {
            field_name: 'status',
            criteria_condition: 'custom_condition',
            value: ['${ALL_CLOSED}'],
          },
        ],
        '1',
      ),
    );
    expect(explanation()).toBe('Status is all closed');

    await user.selectOptions(select('Condition of criterion 1'), 'is all open');
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'status', criteria_condition: 'all_open' }], '1'),
    );
  });
});

describe('filter builder: people', () => {
  it('picks people by name and sends their ZPUIDs; one person for a relation; presets', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Owner');
    await user.selectOptions(listbox('Values of criterion 1'), 'Maya Raman');
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'owner', criteria_condition: 'is', value: ['5001'] }], '1'),
    );

    await user.selectOptions(select('Condition of criterion 1'), 'is a direct report of');
    const person = select('Value of criterion 1');
    expect(optionLabels(person)).toEqual(['Choose…', 'Maya Raman', 'Jonas Weber']);
    await user.selectOptions(person, 'Jonas Weber');
    expect(lastListed(ws)).toBe(
      filterText(
        [{ field_name: 'owner', criteria_condition: 'direct_reports_of', value: ['5002'] }],
        '1',
      ),
    );

    await user.selectOptions(select('Condition of criterion 1'), 'is a deactivated user');
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'owner', criteria_condition: 'deactivated_users' }], '1'),
    );
  });

  it('waits for a person to be chosen before a relation applies', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Owner', 'is a subordinate of');
    expect((select('Value of criterion 1') as HTMLSelectElement).value).toBe('');
    // Nothing is wrong yet: the new criterion waits for its value and is not applied.
    expect(criterionProblem(1)).toBeUndefined();
    expect(criterionHint(1)).toBe(
      'Waiting for a value: the list changes once this criterion has one.',
    );
    expect(explanation()).toBe('The list changes once criterion 1 has a value.');
    expect(lastListed(ws)).toBeUndefined();
  });

  it('shows an emptied value as an error once the person has given one', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Cost', 'is between');
    const from = screen.getByRole('textbox', { name: 'From of criterion 1' });
    expect(from.getAttribute('aria-invalid')).toBeNull();
    expect(from.getAttribute('aria-describedby')).toBe(
      screen.getByTestId('criterion-1').querySelector('.hint')?.id,
    );
    await user.type(from, '5');
    await pass(TYPING_APPLY_MS);
    // The second box is still empty, and now that counts as a problem.
    expect(criterionProblem(1)).toMatch(/^Second value is empty/);
    expect(criterionHint(1)).toBeUndefined();
    await user.clear(from);
    await pass(TYPING_APPLY_MS);
    expect(criterionProblem(1)).toMatch(/^First value is empty.*Second value is empty/);
    expect(explanation()).toBe(
      'The list still shows the last valid filter: correct the problems above to apply this one.',
    );
    expect(lastListed(ws)).toBeUndefined();
  });
});

describe('filter builder: pick lists and multi pick lists', () => {
  it('filters a pick list by the option name', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Category');
    await user.selectOptions(listbox('Values of criterion 1'), 'Network');
    expect(lastListed(ws)).toBe(
      filterText(
        [{ field_name: 'cf_category', criteria_condition: 'is', value: ['Network'] }],
        '1',
      ),
    );
    expect(explanation()).toBe('Category is "Network"');
  });

  it('filters a multi-select by option id and a multi-user field by ZPUID', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Tags', 'does not include');
    await user.selectOptions(listbox('Values of criterion 1'), ['Critical', 'Leased']);
    await addCriterion(user, 2, 'Watchers');
    expect(optionLabels(listbox('Values of criterion 2'))).toEqual(['Maya Raman', 'Jonas Weber']);
    await user.selectOptions(listbox('Values of criterion 2'), 'Jonas Weber');
    expect(lastListed(ws)).toBe(
      filterText(
        [
          { field_name: 'cf_tags', criteria_condition: 'is_not', value: ['41', '42'] },
          { field_name: 'cf_watchers', criteria_condition: 'is', value: ['5002'] },
        ],
        '1 AND 2',
      ),
    );
    // The filter holds ids; the words name them as the pickers do.
    expect(explanation()).toBe(
      'Tags includes none of "Critical", "Leased" AND Watchers includes "Jonas Weber"',
    );
  });
});

describe('filter builder: copy as API filter', () => {
  it('copies exactly the filter the list shows, and says so until the filter changes', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Name', 'starts with');
    await user.type(screen.getByRole('textbox', { name: 'Value of criterion 1' }), 'Dell "XPS"');
    await addCriterion(user, 2, 'Status', 'is all open');
    await pass(TYPING_APPLY_MS);
    const expected = filterText(
      [
        { field_name: 'name', criteria_condition: 'starts_with', value: ['Dell "XPS"'] },
        { field_name: 'status', criteria_condition: 'all_open' },
      ],
      '1 AND 2',
    );
    expect(lastListed(ws)).toBe(expected);
    expect(shownFilter()).toBe(expected);

    await user.click(button('Copy as API filter'));
    expect(await navigator.clipboard.readText()).toBe(expected);
    expect((await screen.findByRole('status')).textContent).toBe(
      'Copied: paste it as the filter query parameter.',
    );

    // A note that it was copied must not outlive the filter that was copied.
    await user.click(button('Remove criterion 2'));
    expect(screen.queryByText(/^Copied/)).toBeNull();
  });

  it('says how to copy by hand when the clipboard is refused', async () => {
    const { user } = await openFilterPanel();
    await addCriterion(user, 1, 'Status', 'is all closed');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(button('Copy as API filter'));
    expect((await screen.findByRole('status')).textContent).toBe(
      'The clipboard is not available here: select the text below and copy it.',
    );
    expect(shownFilter()).toBe(
      filterText([{ field_name: 'status', criteria_condition: 'all_closed' }], '1'),
    );
  });
});

describe('filter builder: keyboard', () => {
  it('adds, fills and removes a criterion without the mouse', async () => {
    const { ws, user } = await openFilterPanel();
    await user.tab();
    expect(document.activeElement).toBe(button('+ Add criterion'));
    await user.keyboard('{Enter}');
    const item = screen.getByTestId('criterion-1');
    // Backwards from the add button: remove, value, condition, field of the new criterion.
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(
      within(item).getByRole('button', { name: 'Remove criterion 1' }),
    );
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '+ value' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(
      screen.getByRole('textbox', { name: 'Value of criterion 1' }),
    );
    await user.keyboard('Lenovo');
    await pass(TYPING_APPLY_MS);
    expect(lastListed(ws)).toBe(
      filterText([{ field_name: 'name', criteria_condition: 'is', value: ['Lenovo'] }], '1'),
    );
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(select('Condition of criterion 1'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(select('Field of criterion 1'));

    for (let i = 0; i < 4; i += 1) await user.tab();
    expect(document.activeElement).toBe(button('Remove criterion 1'));
    await user.keyboard('{Enter}');
    expect(screen.queryByTestId('criterion-1')).toBeNull();
    expect(lastListed(ws)).toBeUndefined();
  });
});
