/**
 * Steps and readings shared by the filter panel's interactive tests: what a person does with the
 * builder (add a criterion, pick its field and condition) and what the panel shows and sends.
 */
import { createElement } from 'react';
import { render, screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { FilterCriterion } from '@portaldesk/portal-api/filter';
import { FilterPanel } from '../../../../src/renderer/src/features/filters/FilterPanel';
import { openWorkspace, type Workspace } from '../support/recordsWorkspace';
import { setupUser } from '../support/dom';

export async function openFilterPanel(
  options: Parameters<typeof openWorkspace>[0] = {},
): Promise<{ ws: Workspace; user: UserEvent }> {
  const user = setupUser();
  const ws = await openWorkspace(options);
  render(ws.wrap(createElement(FilterPanel)));
  return { ws, user };
}

/** The exact `filter` query value for these criteria and pattern. */
export function filterText(criteria: FilterCriterion[], pattern: string): string {
  return JSON.stringify({ criteria, pattern });
}

export const select = (name: string) => screen.getByRole('combobox', { name });
export const listbox = (name: string) => screen.getByRole('listbox', { name });
export const button = (name: string) => screen.getByRole('button', { name });

/** Adds criterion `n` with the mouse and picks its field and condition by what the menus say. */
export async function addCriterion(
  user: UserEvent,
  n: number,
  field: string,
  condition?: string,
): Promise<void> {
  await user.click(button('+ Add criterion'));
  await user.selectOptions(select(`Field of criterion ${n}`), field);
  if (condition !== undefined) {
    await user.selectOptions(select(`Condition of criterion ${n}`), condition);
  }
}

/** The visible labels of a select's options. */
export function optionLabels(element: HTMLElement): string[] {
  return [...element.querySelectorAll('option')].map((option) => option.textContent ?? '');
}

/** What the panel shows as the filter to copy (absent when the draft is not valid). */
export function shownFilter(): string | undefined {
  return screen.queryByTestId('filter-json')?.textContent ?? undefined;
}

export function explanation(): string | undefined {
  return screen.queryByTestId('filter-explain')?.textContent ?? undefined;
}

/** The filter the records table last asked the engine for (undefined: every record). */
export function lastListed(ws: Workspace): string | undefined {
  return ws.listedFilters().at(-1);
}

/** The hint shown at criterion `n` while it waits for its first value, if any. */
export function criterionHint(n: number): string | undefined {
  const item = screen.getByTestId(`criterion-${n}`);
  return item.querySelector('p.hint')?.textContent ?? undefined;
}

/** The problem shown at criterion `n`, if any. */
export function criterionProblem(n: number): string | undefined {
  const item = screen.getByTestId(`criterion-${n}`);
  return item.querySelector('[role="alert"]')?.textContent ?? undefined;
}
