// @vitest-environment happy-dom
/**
 * The table's header says how a column sorts: a currency column sorts by currency, then amount
 * (issue 19), and once the list is sorted by it, its tooltip names the currencies of the rows on
 * screen.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RecordRow } from '../../../../src/shared/ipc/areas/records';
import { RecordsTable } from '../../../../src/renderer/src/features/records/RecordsTable';
import { useDomTestEnvironment } from '../support/dom';
import { openWorkspace } from '../support/recordsWorkspace';
import { sampleRow } from './sampleRow';

useDomTestEnvironment();

const withCost = (id: number, code: string | null, amount: number): RecordRow =>
  sampleRow({
    id: String(1100000000000 + id),
    name: `Dock #${id}`,
    custom:
      code === null
        ? {}
        : { cf_cost: { currency_code: code, formatted_amount: `${code} ${amount}`, amount } },
  });

// As the engine sorts them by Cost: by currency, then amount, empty values last.
const SORTED = [
  withCost(3, 'EUR', 5),
  withCost(1, 'EUR', 40),
  withCost(4, 'INR', 2),
  withCost(2, 'USD', 1),
  withCost(5, null, 0),
];

describe('the records table header', () => {
  it('says a currency sorts by currency, then amount, and names the currencies shown', async () => {
    // The virtual list shows the rows that fit its box (clientHeight): give it one.
    const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get: () => 600,
    });
    try {
      const ws = await openWorkspace({
        overrides: {
          'records.query': ({ sort }) =>
            sort?.field === 'cf_cost'
              ? { rows: sort.descending ? [...SORTED].reverse() : SORTED, total: SORTED.length }
              : { rows: [withCost(1, 'EUR', 40)], total: 1 },
        },
      });
      // The fixture's fields are all marked custom: show two columns, once each.
      act(() => ws.store.setState({ layout: { visible: ['name', 'cf_cost'], widths: {} } }));
      render(ws.wrap(createElement(RecordsTable, { label: 'Assets records' })));
      const header = screen.getByRole('columnheader', { name: /^Cost\b/ });
      const button = within(header).getByRole('button');
      expect(button.getAttribute('title')).toBe('Sort by Cost: by currency, then amount');
      expect(
        within(screen.getByRole('columnheader', { name: /^Name\b/ }))
          .getByRole('button')
          .getAttribute('title'),
      ).toBe('Sort by Name');

      const user = userEvent.setup();
      await user.click(button);
      await waitFor(() => expect(header.getAttribute('aria-sort')).toBe('ascending'));
      await waitFor(() =>
        expect(button.getAttribute('title')).toBe(
          'Sorted by currency, then amount. Currencies shown: EUR, INR, USD.',
        ),
      );
      await user.click(button);
      await waitFor(() => expect(header.getAttribute('aria-sort')).toBe('descending'));
      await waitFor(() =>
        expect(button.getAttribute('title')).toBe(
          'Sorted by currency, then amount. Currencies shown: USD, INR, EUR.',
        ),
      );
    } finally {
      if (height) Object.defineProperty(HTMLElement.prototype, 'clientHeight', height);
    }
  });
});
