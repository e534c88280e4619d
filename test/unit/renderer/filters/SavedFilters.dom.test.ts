// @vitest-environment happy-dom
/**
 * Presets and saved filters in the filter panel: a preset adds an ordinary criterion; a filter is
 * saved under a name through `records.saveFilter` exactly as the builder shows it, opened again
 * into the builder, replaced and deleted; a refused save says why and keeps what was typed.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SAVED_FILTER_NAME_MAX } from '../../../../src/shared/ipc/areas/records';
import { TYPING_APPLY_MS } from '../../../../src/renderer/src/features/filters/FilterBuilder';
import { pass, useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, PORTAL_ID } from '../support/recordsWorkspace';
import {
  addCriterion,
  button,
  explanation,
  filterText,
  lastListed,
  openFilterPanel,
  optionLabels,
  select,
  shownFilter,
} from './filterTestKit';

useDomTestEnvironment();

const OPEN = { field_name: 'status', criteria_condition: 'all_open' };
const OVERDUE = { field_name: 'cf_due', criteria_condition: 'overdue' };
const nameBox = () =>
  screen.getByRole('textbox', { name: 'Name for this filter' }) as HTMLInputElement;
const savedList = () => within(screen.getByRole('region', { name: 'Saved filters' }));

describe('presets', () => {
  it('offers the status presets and date presets of each date field', async () => {
    await openFilterPanel();
    expect(optionLabels(select('Add a preset'))).toEqual([
      'Add a preset…',
      'Status is open',
      'Status is closed',
      // The record's own creation date has no "overdue" or "next 7 days".
      'Created today',
      'Created this week',
      'Created last week',
      'Created this month',
      'Due today',
      'Due this week',
      'Due last week',
      'Due this month',
      'Due overdue',
      'Due in the next 7 days',
    ]);
  });

  it('adds each picked preset as a criterion and applies it at once', async () => {
    const { ws, user } = await openFilterPanel();
    await user.selectOptions(select('Add a preset'), 'Status is open');
    expect(lastListed(ws)).toBe(filterText([OPEN], '1'));
    // The menu goes back to its prompt, ready for the next preset.
    expect((select('Add a preset') as HTMLSelectElement).value).toBe('');
    await user.selectOptions(select('Add a preset'), 'Due overdue');
    expect(lastListed(ws)).toBe(filterText([OPEN, OVERDUE], '1 AND 2'));
    expect(explanation()).toBe('Status is all open AND Due is overdue');
    expect((select('Condition of criterion 2') as HTMLSelectElement).value).toBe('overdue');
  });

  it('gives an ordinary criterion that can be edited like any other', async () => {
    const { ws, user } = await openFilterPanel();
    await user.selectOptions(select('Add a preset'), 'Created this week');
    await user.selectOptions(select('Condition of criterion 1'), 'is between');
    await user.type(screen.getByLabelText('From of criterion 1'), '2026-11-01');
    await user.type(screen.getByLabelText('To of criterion 1'), '2026-11-22');
    expect(lastListed(ws)).toBe(
      filterText(
        [
          {
            field_name: 'created_time',
            criteria_condition: 'between',
            value: ['2026-11-01', '2026-11-22'],
          },
        ],
        '1',
      ),
    );
  });
});

describe('saved filters', () => {
  it('can only save a valid filter', async () => {
    const { user } = await openFilterPanel();
    expect(nameBox().disabled).toBe(true);
    expect(screen.getByText('Build a valid filter to save it.')).toBeTruthy();
    // A criterion still waiting for its value is not valid yet.
    await addCriterion(user, 1, 'Cost', 'is less than');
    expect(nameBox().disabled).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'Value of criterion 1' }), '500');
    expect(nameBox().disabled).toBe(false);
    // A blank name cannot be saved either.
    await user.type(nameBox(), '   ');
    expect((button('Save filter') as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves the filter being built under a trimmed name, with Enter', async () => {
    const { ws, user } = await openFilterPanel();
    await user.selectOptions(select('Add a preset'), 'Status is open');
    await addCriterion(user, 2, 'Name', 'contains');
    await user.type(screen.getByRole('textbox', { name: 'Value of criterion 2' }), 'ThinkPad');
    const expected = filterText(
      [OPEN, { field_name: 'name', criteria_condition: 'contains', value: ['ThinkPad'] }],
      '1 AND 2',
    );
    // Saved as the builder shows it, even before the typed value has been applied to the list.
    await user.type(nameBox(), '  Open laptops  {Enter}');
    expect(ws.engine.argsOf('records.saveFilter')).toEqual([
      { portalId: PORTAL_ID, moduleId: MODULE_ID, name: 'Open laptops', filter: expected },
    ]);
    expect((await screen.findByRole('status')).textContent).toBe('Saved as "Open laptops".');
    expect(nameBox().value).toBe('');
    await pass(TYPING_APPLY_MS);
    // Once the list shows it, the saved entry is marked as the one on screen.
    const entry = savedList().getByRole('button', { name: 'Open laptops' });
    expect(entry.getAttribute('aria-current')).toBe('true');
    expect(lastListed(ws)).toBe(expected);
  });

  it('replaces a saved filter of the same name and says so', async () => {
    const { ws, user } = await openFilterPanel({
      saved: [
        { id: 7, name: 'Mine', filter: filterText([OPEN], '1'), updatedAt: '2026-11-01T00:00:00Z' },
      ],
    });
    await user.selectOptions(select('Add a preset'), 'Due overdue');
    await user.type(nameBox(), 'Mine');
    await user.click(button('Save filter'));
    expect((await screen.findByRole('status')).textContent).toBe('Replaced "Mine".');
    expect(ws.saved).toEqual([
      expect.objectContaining({ id: 7, filter: filterText([OVERDUE], '1') }),
    ]);
    expect(savedList().getAllByRole('listitem')).toHaveLength(1);
  });

  it('keeps names within the limit', async () => {
    const { ws, user } = await openFilterPanel();
    await user.selectOptions(select('Add a preset'), 'Status is closed');
    await user.type(nameBox(), 'x'.repeat(SAVED_FILTER_NAME_MAX + 20));
    await user.click(button('Save filter'));
    expect(ws.engine.argsOf('records.saveFilter')[0]?.name).toBe('x'.repeat(SAVED_FILTER_NAME_MAX));
  });

  it('says why a save was refused and keeps the typed name', async () => {
    const refusal =
      'This module already has 200 saved filters, the most it can keep. Nothing was saved: delete one and save again.';
    const { user } = await openFilterPanel({
      overrides: {
        'records.saveFilter': () => {
          throw new Error(refusal);
        },
      },
    });
    await user.selectOptions(select('Add a preset'), 'Status is open');
    await user.type(nameBox(), 'One more');
    await user.click(button('Save filter'));
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(nameBox().value).toBe('One more');
    expect(screen.queryByRole('status')).toBeNull();
    expect(savedList().getByText('None yet for this module.')).toBeTruthy();
  });

  it('opens a saved filter into the builder and lists with it', async () => {
    const saved = filterText(
      [
        OPEN,
        OVERDUE,
        { field_name: 'cf_cost', criteria_condition: 'between', value: ['10', '20'] },
      ],
      '1 AND (2 OR 3)',
    );
    const { ws, user } = await openFilterPanel({
      saved: [{ id: 3, name: 'Urgent', filter: saved, updatedAt: '2026-11-01T00:00:00Z' }],
    });
    await user.click(savedList().getByRole('button', { name: 'Urgent' }));
    expect(lastListed(ws)).toBe(saved);
    expect(shownFilter()).toBe(saved);
    expect((select('Field of criterion 3') as HTMLSelectElement).value).toBe('cf_cost');
    expect((select('Condition of criterion 3') as HTMLSelectElement).value).toBe('between');
    expect(
      (screen.getByRole('textbox', { name: 'From of criterion 3' }) as HTMLInputElement).value,
    ).toBe('10');
    expect((screen.getByRole('textbox', { name: 'Pattern' }) as HTMLInputElement).value).toBe(
      '1 AND (2 OR 3)',
    );
    expect(savedList().getByRole('button', { name: 'Urgent' }).getAttribute('aria-current')).toBe(
      'true',
    );

    // Its pattern counts as typed: a new criterion is added to it, not over it.
    await user.selectOptions(select('Add a preset'), 'Status is closed');
    expect((screen.getByRole('textbox', { name: 'Pattern' }) as HTMLInputElement).value).toBe(
      '(1 AND (2 OR 3)) AND 4',
    );
    expect(
      savedList().getByRole('button', { name: 'Urgent' }).getAttribute('aria-current'),
    ).toBeNull();
  });

  it('says so when a saved filter no longer reads, and keeps the list as it is', async () => {
    const { ws, user } = await openFilterPanel({
      saved: [{ id: 5, name: 'Broken', filter: '{"criteria":', updatedAt: '2026-11-01T00:00:00Z' }],
    });
    const before = lastListed(ws);
    await user.click(savedList().getByRole('button', { name: 'Broken' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^The saved filter "Broken" can no longer be read \(.+\); the list keeps its filter\. Delete it/,
    );
    expect(lastListed(ws)).toBe(before);
  });

  it('deletes a saved filter and leaves the list as it is', async () => {
    const { ws, user } = await openFilterPanel({
      saved: [
        { id: 4, name: 'Open', filter: filterText([OPEN], '1'), updatedAt: '2026-11-01T00:00:00Z' },
      ],
    });
    await user.click(savedList().getByRole('button', { name: 'Open' }));
    await user.click(savedList().getByRole('button', { name: 'Delete saved filter Open' }));
    expect(ws.engine.argsOf('records.deleteFilter')).toEqual([
      { portalId: PORTAL_ID, moduleId: MODULE_ID, id: 4 },
    ]);
    expect(await savedList().findByText('None yet for this module.')).toBeTruthy();
    expect(lastListed(ws)).toBe(filterText([OPEN], '1'));
  });
});
