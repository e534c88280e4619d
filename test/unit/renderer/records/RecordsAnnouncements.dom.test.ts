// @vitest-environment happy-dom
/**
 * What a screen reader is told while a sync refreshes the list it works in: the records count is
 * announced for the lists the person asks for (the module, a filter), not at every refresh of the
 * same list (up to once a second during a sync), and the grid is marked busy only while a list
 * they asked for is read. The count on screen follows every refresh (from the grid review).
 */
import { createElement } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecordRow } from '../../../../src/shared/ipc/areas/records';
import { RecordsView } from '../../../../src/renderer/src/features/records/RecordsView';
import { useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, openWorkspace, PORTAL_ID } from '../support/recordsWorkspace';
import { sampleRow } from './sampleRow';

useDomTestEnvironment();

const row = (i: number): RecordRow =>
  sampleRow({ id: String(1100000000000 + i), name: `Dock #${i}` });

describe('the records count and the busy grid', () => {
  it('announces the count of asked-for lists only, and a refresh never marks the grid busy', async () => {
    let total = 1_000;
    let hold: Promise<void> | null = null;
    const ws = await openWorkspace({
      overrides: {
        'records.query': async ({ offset, limit }) => {
          if (hold) await hold;
          return {
            rows: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, k) =>
              row(offset + k),
            ),
            total,
          };
        },
      },
    });
    render(ws.wrap(createElement(RecordsView)));
    const shown = () => screen.getByTestId('records-total').textContent;
    const announced = () => screen.getByTestId('records-total-announced').textContent;
    await waitFor(() => expect(shown()).toBe('1,000 records'));
    expect(announced()).toBe('1,000 records');
    const grid = screen.getByRole('grid');

    // A sync stored pages: the same list is read again, held while we look at the grid.
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    total = 1_200;
    act(() => ws.store.getState().changed({ portalId: PORTAL_ID, moduleId: MODULE_ID }));
    await waitFor(() => expect(ws.store.getState().listLoading).toBe(true));
    expect(grid.getAttribute('aria-busy')).toBe('false');
    hold = null;
    act(() => release());
    await waitFor(() => expect(shown()).toBe('1,200 records'));
    expect(announced()).toBe('1,000 records');

    // The person asks for another list (a sort): busy while it is read, then announced.
    hold = new Promise((resolve) => (release = resolve));
    total = 1_150;
    act(() => ws.store.getState().setSort('name'));
    await waitFor(() => expect(grid.getAttribute('aria-busy')).toBe('true'));
    hold = null;
    act(() => release());
    await waitFor(() => expect(announced()).toBe('1,150 records'));
    expect(shown()).toBe('1,150 records');
    expect(grid.getAttribute('aria-busy')).toBe('false');

    // A sync's refresh while an asked-for list is still read: still that list's reading.
    hold = new Promise((resolve) => (release = resolve));
    total = 1_100;
    act(() => ws.store.getState().setSort('name'));
    await waitFor(() => expect(grid.getAttribute('aria-busy')).toBe('true'));
    act(() => ws.store.getState().changed({ portalId: PORTAL_ID, moduleId: MODULE_ID }));
    expect(grid.getAttribute('aria-busy')).toBe('true');
    hold = null;
    act(() => release());
    await waitFor(() => expect(announced()).toBe('1,100 records'));
  });
});
