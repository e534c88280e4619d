// @vitest-environment happy-dom
/**
 * Issue 19: event-log rows overlapped when a publisher's name wrapped (rows are virtualised at
 * one fixed height). Each cell is now one line, cut with an ellipsis, and says all of itself in
 * its tooltip. That nothing spills is measured in a browser (test/e2e/router.spec.ts); here, that
 * the whole name is there to read.
 */
import { createElement } from 'react';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../../../src/renderer/src/features/router/EventLog';
import { useDomTestEnvironment } from '../support/dom';
import { NOW_MS, customPublisher, overviewOf, renderRouterPanel } from './routerFixtures';

useDomTestEnvironment();

// happy-dom lays nothing out: give the list a size, or the virtualised list shows no row.
const size = Object.getOwnPropertyDescriptors(HTMLElement.prototype);
beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get: () => 600,
  });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get: () => 800,
  });
});
afterEach(() => {
  for (const name of ['clientHeight', 'clientWidth'] as const) {
    const own = size[name];
    if (own) Object.defineProperty(HTMLElement.prototype, name, own);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
  }
});

const LONG =
  'Warehouse and fulfilment integration for the northern distribution centres, including returns';

describe('an event log row', () => {
  it('shows a long publisher name and event name whole in their tooltips', async () => {
    const publisher = customPublisher(LONG, ['order_created_for_the_northern_distribution_centre']);
    const event = publisher.events[0]!;
    await renderRouterPanel(createElement(EventLog), () => overviewOf([publisher]), {
      'router.listEvents': () => ({
        total: 1,
        rows: [
          {
            id: '42',
            publisherId: publisher.id,
            eventConfigId: event.id,
            apiName: event.apiName,
            status: 'Success',
            timeMs: NOW_MS,
            ruleIds: [],
          },
        ],
      }),
    });
    const list = screen.getByRole('listbox', { name: 'Events' });
    const row = await within(list).findByRole('option');
    expect(within(row).getByTitle(LONG).textContent).toBe(LONG);
    expect(within(row).getByTitle(event.apiName).textContent).toBe(event.apiName);
    expect(row.getAttribute('class')).toBe('router-log__row');
  });
});
