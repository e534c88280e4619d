// @vitest-environment happy-dom
/**
 * Search results never stay over the record panel: opening a record from them (click or Enter)
 * closes them and moves the keyboard focus to the panel, which keeps that record (the table's
 * focused row does not take over); Escape closes them and keeps the text, a second Escape clears
 * it; coming back to the box or ArrowDown opens them again.
 */
import { createElement } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RecordsView } from '../../../../src/renderer/src/features/records/RecordsView';
import { SyncContext } from '../../../../src/renderer/src/features/sync/SyncContext';
import { createSyncStore } from '../../../../src/renderer/src/features/sync/syncStore';
import type { RecordDetail, SearchHit } from '../../../../src/shared/ipc/areas/records';
import { pass, setupUser, useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, openWorkspace } from '../support/recordsWorkspace';
import { sampleRow } from './sampleRow';

useDomTestEnvironment();

const ROWS = [
  sampleRow({ id: '1100000000001', name: 'Lenovo ThinkPad' }),
  sampleRow({ id: '1100000000002', name: 'Dell Latitude' }),
];
const hit = (recordId: string, name: string): SearchHit => ({
  recordId,
  moduleId: MODULE_ID,
  module: 'Assets',
  source: 'name',
  commentId: null,
  name: [{ text: name, highlighted: true }],
  snippet: [],
});
const HITS = [hit('1100000000007', 'Projector east wing'), hit('1100000000008', 'Projector lobby')];

async function workspace() {
  const ws = await openWorkspace({
    overrides: {
      'records.query': () => ({ rows: ROWS, total: ROWS.length }),
      'records.search': () => HITS,
      'records.get': ({ recordId }): RecordDetail => ({
        record: sampleRow({
          id: recordId,
          name: HITS.find((h) => h.recordId === recordId)?.name[0]?.text ?? 'Row record',
        }),
        trashedTime: null,
        layout: null,
        timeline: [],
        comments: [],
        commentsSyncedAt: null,
        timeZone: 'UTC',
      }),
      'records.viewed': () => [],
    },
  });
  render(
    createElement(
      SyncContext.Provider,
      { value: createSyncStore(ws.engine.api) },
      ws.wrap(createElement(RecordsView)),
    ),
  );
  return ws;
}

const box = () => screen.getByRole('combobox', { name: 'Search records' });
const results = () => screen.queryByRole('listbox', { name: 'Search results' });
const panel = () => screen.getByTestId('record-detail');

describe('search results and the record panel', () => {
  it('a hit clicked closes the results, focuses the panel, and the panel keeps that record', async () => {
    const user = setupUser();
    const ws = await workspace();
    await user.type(box(), 'projector');
    await pass(250);
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(2);

    await user.click(options[1]!);
    expect(results()).toBeNull();
    expect(box().getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(panel().querySelector('h2')?.textContent).toBe('Projector lobby'));
    expect(document.activeElement).toBe(panel());
    // Longer than the table's follow-the-focus pause: its focused row does not replace the record.
    await pass(500);
    expect(panel().querySelector('h2')?.textContent).toBe('Projector lobby');
    expect(ws.engine.argsOf('records.get').map((a) => a.recordId)).toEqual(['1100000000008']);

    // Back in the box, the same results open again; Enter opens the chosen one the same way.
    await user.click(box());
    expect(screen.getAllByRole('option')).toHaveLength(2);
    await user.keyboard('{ArrowUp}{Enter}');
    expect(results()).toBeNull();
    await waitFor(() =>
      expect(panel().querySelector('h2')?.textContent).toBe('Projector east wing'),
    );
    expect(document.activeElement).toBe(panel());
  });

  it('Escape closes the results and keeps the text; ArrowDown opens them; a second Escape clears', async () => {
    const user = setupUser();
    await workspace();
    await user.type(box(), 'projector');
    await pass(250);
    expect(results()).not.toBeNull();

    await user.keyboard('{Escape}');
    expect(results()).toBeNull();
    expect((box() as HTMLInputElement).value).toBe('projector');
    expect(document.activeElement).toBe(box());

    await user.keyboard('{ArrowDown}');
    expect(results()).not.toBeNull();
    await user.keyboard('{Escape}');
    await user.keyboard('{Escape}');
    expect((box() as HTMLInputElement).value).toBe('');
    expect(results()).toBeNull();
    expect(document.activeElement).not.toBe(box());
  });
});
