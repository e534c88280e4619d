// @vitest-environment happy-dom
/**
 * The open module's columns follow a configuration change (`records.changed` for the whole
 * portal: a status renamed in the Outbox, or that rename discarded): the status filter's choices
 * name statuses as the rows do. They were read only when the module was opened, so the filter
 * offered a status by its old name beside rows showing the new one. The column layout is kept.
 */
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDomTestEnvironment } from '../support/dom';
import { COLUMNS, MODULE_ID, openWorkspace, PORTAL_ID } from '../support/recordsWorkspace';

useDomTestEnvironment();

describe('the open module’s columns after a configuration change', () => {
  it('are read again: the filter’s statuses by their new names, the layout kept', async () => {
    let columns = COLUMNS;
    const ws = await openWorkspace({ overrides: { 'records.columns': () => columns } });
    await waitFor(() => expect(ws.store.getState().columns).toEqual(COLUMNS));
    const [first] = COLUMNS.fields;
    act(() => ws.store.getState().toggleColumn(first!.key));
    const layout = ws.store.getState().layout;
    const renamed = COLUMNS.statuses.map((status, i) =>
      i === 0 ? { ...status, name: 'Awaiting parts' } : status,
    );
    columns = { ...COLUMNS, statuses: renamed };

    act(() => ws.store.getState().changed({ portalId: PORTAL_ID, moduleId: null }));
    await waitFor(() => expect(ws.store.getState().columns?.statuses).toEqual(renamed));
    expect(ws.store.getState().layout).toEqual(layout);
    expect(ws.store.getState().moduleId).toBe(MODULE_ID);
  });
});
