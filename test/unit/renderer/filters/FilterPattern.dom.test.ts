// @vitest-environment happy-dom
/**
 * Editing the pattern that combines the criteria, as a person types it: a valid pattern applies
 * once typing pauses; every kind of mistake is explained under the pattern box, and until it is
 * corrected nothing new is applied, copied or saved.
 */
import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TYPING_APPLY_MS } from '../../../../src/renderer/src/features/filters/FilterBuilder';
import { pass, useDomTestEnvironment } from '../support/dom';
import type { Workspace } from '../support/recordsWorkspace';
import {
  addCriterion,
  button,
  explanation,
  filterText,
  lastListed,
  openFilterPanel,
  shownFilter,
} from './filterTestKit';

useDomTestEnvironment();

const NAME = { field_name: 'name', criteria_condition: 'contains', value: ['dell'] };
const OPEN = { field_name: 'status', criteria_condition: 'all_open' };
const COST = { field_name: 'cf_cost', criteria_condition: 'greater_than', value: ['100'] };
const WORDS = ['Name contains "dell"', 'Status is all open', 'Cost is greater than 100'];

/** Three criteria built with the builder and applied: `1 AND 2 AND 3`. */
async function buildThreeCriteria(): Promise<{ ws: Workspace; user: UserEvent }> {
  const opened = await openFilterPanel();
  const { user } = opened;
  await addCriterion(user, 1, 'Name', 'contains');
  await user.type(screen.getByRole('textbox', { name: 'Value of criterion 1' }), 'dell');
  await addCriterion(user, 2, 'Status', 'is all open');
  await addCriterion(user, 3, 'Cost', 'is greater than');
  await user.type(screen.getByRole('textbox', { name: 'Value of criterion 3' }), '100');
  await pass(TYPING_APPLY_MS);
  return opened;
}

/** The same three criteria in one click, from a saved filter (the builder is tested above). */
async function threeCriteria(): Promise<{ ws: Workspace; user: UserEvent }> {
  const filter = filterText([NAME, OPEN, COST], '1 AND 2 AND 3');
  const opened = await openFilterPanel({
    saved: [{ id: 1, name: 'Three', filter, updatedAt: '2026-11-01T00:00:00Z' }],
  });
  await opened.user.click(screen.getByRole('button', { name: 'Three' }));
  return opened;
}

const patternBox = () => screen.getByRole('textbox', { name: 'Pattern' }) as HTMLInputElement;

/** Replaces the pattern, pasted in one go (typing key by key is tested on its own below). */
async function enterPattern(user: UserEvent, pattern: string): Promise<void> {
  await user.clear(patternBox());
  if (pattern !== '') await user.paste(pattern);
}

/** The message under the pattern box. */
function patternHelp(): string {
  const id = patternBox().getAttribute('aria-describedby') ?? '';
  return document.getElementById(id)?.textContent ?? '';
}

describe('pattern: combining criteria', () => {
  it('starts as every criterion ANDed, in words and as the filter value', async () => {
    const { ws } = await buildThreeCriteria();
    expect(patternBox().value).toBe('1 AND 2 AND 3');
    expect(patternHelp()).toBe(
      'Combine criteria by number with AND, OR and parentheses, e.g. (1 AND 2) OR 3.',
    );
    expect(explanation()).toBe(WORDS.join(' AND '));
    expect(lastListed(ws)).toBe(filterText([NAME, OPEN, COST], '1 AND 2 AND 3'));
  });

  it('applies (1 AND 2) OR 3 once typing pauses', async () => {
    const { ws, user } = await threeCriteria();
    const before = ws.listedFilters().length;
    await user.clear(patternBox());
    await user.type(patternBox(), '(1 AND 2) OR 3');
    expect(ws.listedFilters()).toHaveLength(before);
    await pass(TYPING_APPLY_MS);
    const expected = filterText([NAME, OPEN, COST], '(1 AND 2) OR 3');
    expect(lastListed(ws)).toBe(expected);
    expect(ws.listedFilters()).toHaveLength(before + 1);
    expect(shownFilter()).toBe(expected);
    expect(explanation()).toBe(`(${WORDS[0]} AND ${WORDS[1]}) OR ${WORDS[2]}`);
    expect(patternBox().getAttribute('aria-invalid')).toBeNull();
  });

  it('accepts AND and OR mixed without parentheses: AND binds tighter, and the words say so', async () => {
    const { ws, user } = await threeCriteria();
    await enterPattern(user, '1 or 2 and 3');
    await pass(TYPING_APPLY_MS);
    expect(lastListed(ws)).toBe(filterText([NAME, OPEN, COST], '1 or 2 and 3'));
    expect(explanation()).toBe(`${WORDS[0]} OR (${WORDS[1]} AND ${WORDS[2]})`);
  });
});

describe('pattern: mistakes are explained in place and change nothing', () => {
  it.each([
    [
      'an unclosed parenthesis',
      '(1 AND 2 OR 3',
      'expected ")" to close the "(" at character 1, found the end',
    ],
    [
      'a parenthesis closing nothing',
      '1 AND 2) OR 3',
      'unexpected ")" at character 8; it closes no "("',
    ],
    [
      'an unknown criterion number',
      '(1 AND 4) OR 3',
      'criterion 4 does not exist; there are 3 criteria (use 1 to 3); criterion 2 is not used; every criterion must appear in the pattern',
    ],
    [
      'criterion 0',
      '0 OR 1 OR 2 OR 3',
      'criterion 0 does not exist; there are 3 criteria (use 1 to 3)',
    ],
    [
      'an unused criterion',
      '1 AND 2',
      'criterion 3 is not used; every criterion must appear in the pattern',
    ],
    ['an empty pattern', '', 'is empty; write e.g. "1" or "1 AND 2"'],
    [
      'a missing operand',
      '1 AND OR 3',
      'expected a criterion number or "(", found "OR" at character 7',
    ],
    ['a missing operator', '1 2 AND 3', 'expected AND or OR before "2" at character 3'],
    [
      'a word other than AND and OR',
      '1 AND NOT 2 AND 3',
      'unknown word "NOT" at character 7; only AND and OR combine criteria',
    ],
    [
      'a symbol',
      '1 && 2 && 3',
      'unexpected "&" at character 3; a pattern holds criterion numbers, AND, OR and parentheses',
    ],
  ])('%s: %s', async (_what, pattern, message) => {
    const { ws, user } = await threeCriteria();
    const { store } = ws;
    const applied = lastListed(ws);
    const queries = ws.listedFilters().length;
    await enterPattern(user, pattern);
    await pass(TYPING_APPLY_MS * 3);

    expect(patternHelp()).toBe(`The pattern ${message}.`);
    const help = document.getElementById(patternBox().getAttribute('aria-describedby') ?? '');
    expect(help?.getAttribute('role')).toBe('alert');
    expect(patternBox().getAttribute('aria-invalid')).toBe('true');
    // The list keeps the last valid filter, and says so; nothing to copy or save.
    expect(ws.listedFilters()).toHaveLength(queries);
    expect(store.getState().filter).toBe(applied);
    expect(explanation()).toBe(
      'The list still shows the last valid filter: correct the problems above to apply this one.',
    );
    expect(screen.queryByRole('button', { name: 'Copy as API filter' })).toBeNull();
    expect(shownFilter()).toBeUndefined();
    expect((button('Save filter') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Build a valid filter to save it.')).toBeTruthy();
  });

  it('drops a valid pattern that was made invalid before the pause ended', async () => {
    const { ws, user } = await threeCriteria();
    const applied = lastListed(ws);
    await enterPattern(user, '1 OR 2 OR 3');
    await pass(TYPING_APPLY_MS / 2);
    await user.type(patternBox(), ' OR');
    await pass(TYPING_APPLY_MS * 3);
    expect(lastListed(ws)).toBe(applied);
    expect(ws.listedFilters()).not.toContain(filterText([NAME, OPEN, COST], '1 OR 2 OR 3'));
  });

  it('holds back changes to criteria while the pattern is wrong, then applies them all', async () => {
    const { ws, user } = await threeCriteria();
    const applied = lastListed(ws);
    await enterPattern(user, '(1 OR 2');
    const value = screen.getByRole('textbox', { name: 'Value of criterion 3' });
    await user.clear(value);
    await user.type(value, '250');
    await pass(TYPING_APPLY_MS);
    expect(lastListed(ws)).toBe(applied);

    await user.type(patternBox(), ') AND 3');
    await pass(TYPING_APPLY_MS);
    expect(lastListed(ws)).toBe(
      filterText([NAME, OPEN, { ...COST, value: ['250'] }], '(1 OR 2) AND 3'),
    );
  });
});

describe('pattern: adding and removing criteria', () => {
  it('keeps a typed grouping when a criterion is added', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Status', 'is all open');
    await addCriterion(user, 2, 'Due', 'is overdue');
    await enterPattern(user, '1 OR 2');
    await addCriterion(user, 3, 'Insured');
    expect(patternBox().value).toBe('(1 OR 2) AND 3');
    await user.selectOptions(
      screen.getByRole('listbox', { name: 'Values of criterion 3' }),
      'Yes (checked)',
    );
    expect(lastListed(ws)).toBe(
      filterText(
        [
          OPEN,
          { field_name: 'cf_due', criteria_condition: 'overdue' },
          { field_name: 'cf_insured', criteria_condition: 'is', value: ['true'] },
        ],
        '(1 OR 2) AND 3',
      ),
    );
  });

  it('renumbers the pattern when a criterion is removed, and applies at once', async () => {
    const { ws, user } = await threeCriteria();
    await enterPattern(user, '(1 AND 2) OR 3');
    await pass(TYPING_APPLY_MS);
    await user.click(button('Remove criterion 2'));
    expect(patternBox().value).toBe('1 OR 2');
    expect(lastListed(ws)).toBe(filterText([NAME, COST], '1 OR 2'));
    expect(explanation()).toBe(`${WORDS[0]} OR ${WORDS[2]}`);
  });

  it('starts again from AND when a criterion is removed from a broken pattern', async () => {
    const { ws, user } = await threeCriteria();
    await enterPattern(user, '(1 AND 2) OR');
    await user.click(button('Remove criterion 3'));
    expect(patternBox().value).toBe('1 AND 2');
    expect(patternBox().getAttribute('aria-invalid')).toBeNull();
    expect(lastListed(ws)).toBe(filterText([NAME, OPEN], '1 AND 2'));
  });

  it('lists every record again when the last criterion goes', async () => {
    const { ws, user } = await openFilterPanel();
    await addCriterion(user, 1, 'Status', 'is all open');
    expect(lastListed(ws)).toBe(filterText([OPEN], '1'));
    await user.click(button('Remove criterion 1'));
    expect(lastListed(ws)).toBeUndefined();
    expect(screen.queryByRole('textbox', { name: 'Pattern' })).toBeNull();
    expect(
      screen.getByText('No criteria: every record is listed. Add a criterion or pick a preset.'),
    ).toBeTruthy();
  });
});
