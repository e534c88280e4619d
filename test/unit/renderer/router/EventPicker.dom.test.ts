// @vitest-environment happy-dom
/**
 * Issue 19: the rule form's events were 87 bare checkboxes. Now a search (name, scope, publisher;
 * any case), groups by publisher then scope whose checkbox selects what they show (mixed when
 * partly), a count, "Selected only", all by keyboard; filtering never changes the selection,
 * and the rule is saved with what was picked. Over a portal of 80 modules (400 events).
 */
import { createElement } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RulesPanel } from '../../../../src/renderer/src/features/router/RulesPanel';
import type { RuleInput } from '../../../../src/shared/ipc/areas/router';
import { useDomTestEnvironment } from '../support/dom';
import {
  customPublisher,
  overviewOf,
  renderRouterPanel,
  REQUEST_BIN,
  suitePublisher,
} from './routerFixtures';

useDomTestEnvironment();

const MODULES = ['cm_tickets', 'cm_invoices', ...Array.from({ length: 78 }, (_, i) => `cm_m${i}`)];
const TARGET = REQUEST_BIN;

async function openRuleForm() {
  const demo = suitePublisher('Demo portal', MODULES);
  const shop = customPublisher('Shop', ['order_created', 'order_paid', 'ticket_closed']);
  const overview = overviewOf([demo, shop], { targets: [TARGET] });
  const { engine } = await renderRouterPanel(createElement(RulesPanel), () => overview, {
    'router.saveRule': (rule: RuleInput) => ({
      id: '7001',
      name: rule.name,
      status: 'active',
      retryCount: 3,
      eventConfigIds: rule.eventConfigIds,
      filter: null,
      targetIds: rule.targetIds,
      updatedAt: 1,
    }),
  });
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'New rule' }));
  const picker = screen.getByRole('group', { name: 'Events' });
  // Plain DOM queries: role queries over 400 checkboxes take seconds in happy-dom.
  const boxes = () => [...picker.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
  const nameOf = (box: HTMLInputElement) =>
    box.getAttribute('aria-label') ?? box.closest('label')?.textContent?.trim() ?? '';
  /** The checkbox with this accessible name (an event's aria-label, a group's label text). */
  const box = (name: string) => {
    const found = boxes().filter((candidate) => nameOf(candidate) === name);
    expect(found, `one checkbox named ${name}`).toHaveLength(1);
    return found[0]!;
  };
  const shownNames = () =>
    boxes()
      .map(nameOf)
      .filter((name) => name.includes(': '));
  const count = () => within(picker).getByTestId('event-picker-count').textContent;
  const search = within(picker).getByRole('searchbox', { name: 'Search events' });
  /** Replaces the search (pasted: typing 400 checkboxes' worth of renders key by key is slow here). */
  const searchFor = async (text: string) => {
    await user.clear(search);
    if (text) await user.paste(text);
  };
  return { engine, user, picker, demo, shop, box, shownNames, count, search, searchFor };
}

// happy-dom builds hundreds of checkboxes slowly (seconds; a browser takes milliseconds).
describe('the rule form event picker', { timeout: 60_000 }, () => {
  it('finds events by name, scope or publisher in any case, and keeps the selection while filtering', async () => {
    const { user, picker, box, shownNames, count, search, searchFor } = await openRuleForm();
    expect(shownNames()).toHaveLength(403);
    expect(count()).toBe('0 of 403 selected');

    await user.type(search, 'TICKETS create');
    expect(shownNames()).toEqual(['Demo portal: cm_tickets_Create']);
    await user.click(box('Demo portal: cm_tickets_Create'));
    expect(count()).toBe('1 of 403 selected · 1 shown');

    // By publisher: every event of Shop, and only those.
    await searchFor('shop');
    expect(shownNames()).toEqual([
      'Shop: order_created',
      'Shop: order_paid',
      'Shop: ticket_closed',
    ]);
    // "ticket" is in a name of both publishers; "reject" only in a scope.
    await searchFor('ticket reject');
    expect(shownNames()).toEqual(['Demo portal: cm_tickets_Reject']);
    await searchFor('nothing like this');
    expect(shownNames()).toEqual([]);
    expect(within(picker).getByText('No event matches “nothing like this”.')).toBeTruthy();

    // The event ticked while filtered is still selected, and shows so.
    await searchFor('');
    expect(count()).toBe('1 of 403 selected');
    expect(box('Demo portal: cm_tickets_Create').checked).toBe(true);
  });

  it('a group checkbox selects every event it shows, and is mixed when some are selected', async () => {
    const { user, picker, box, count, searchFor } = await openRuleForm();

    await searchFor('create');
    await user.click(box('All shown Create events'));
    expect(count()).toBe('80 of 403 selected · 81 shown');
    expect(box('All shown Create events').checked).toBe(true);
    // Shop's order_created matched too (its name), and was not touched by Demo's group.
    expect(box('Shop: order_created').checked).toBe(false);
    expect(box('All shown of Demo portal').checked).toBe(true);

    await searchFor('');
    expect(box('All Create events').checked).toBe(true);
    expect(box('All Create events').indeterminate).toBe(false);
    expect(box('All Update events').checked).toBe(false);
    const demo = box('All of Demo portal');
    expect([demo.checked, demo.indeterminate]).toEqual([false, true]);
    expect(within(picker).getByText('80 of 400 selected')).toBeTruthy();

    // A mixed group's checkbox selects the rest, then clears them all.
    await user.click(demo);
    expect(count()).toBe('400 of 403 selected');
    expect([demo.checked, demo.indeterminate]).toEqual([true, false]);
    await user.click(demo);
    expect(count()).toBe('0 of 403 selected');
  });

  it('shows only the selected ones, works with the keyboard alone, and saves what was picked', async () => {
    const { engine, user, box, shownNames, count, search, shop } = await openRuleForm();
    search.focus();
    await user.keyboard('order{Enter}');
    // Enter in the search does not save the rule.
    expect(engine.argsOf('router.saveRule')).toEqual([]);
    expect(shownNames()).toEqual(['Shop: order_created', 'Shop: order_paid']);
    // Tab past "Selected only" and the group checkbox to Shop's first event; Space ticks it.
    await user.tab();
    expect(document.activeElement).toBe(box('Selected only'));
    await user.tab();
    await user.tab();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Shop: order_created');
    await user.keyboard(' ');
    await user.tab();
    await user.keyboard(' ');
    expect(count()).toBe('2 of 403 selected · 2 shown');

    // Escape clears the search; "Selected only" then shows the two.
    search.focus();
    await user.keyboard('{Escape}');
    expect((search as HTMLInputElement).value).toBe('');
    await user.click(box('Selected only'));
    expect(shownNames()).toEqual(['Shop: order_created', 'Shop: order_paid']);

    await user.type(screen.getByLabelText('Name'), 'orders');
    await user.click(screen.getByRole('checkbox', { name: 'bin' }));
    await user.click(screen.getByRole('button', { name: 'Save rule' }));
    expect(engine.argsOf('router.saveRule')).toMatchObject([
      {
        name: 'orders',
        eventConfigIds: [shop.events[0]!.id, shop.events[1]!.id],
        targetIds: ['9001'],
      },
    ]);
  });
});
