// @vitest-environment happy-dom
/**
 * The table's selection is of records, not of places in the list: a sync that stores records
 * while rows are selected moves them to other places, and Copy (like Preview and Move to the
 * recycle bin, BulkEditDialog.dom.test.ts) must act on the records picked. A range whose rows the
 * table does not hold is read from the engine in one reading of the list, checked against the
 * rows the table showed; gestures made meanwhile wait their turn.
 */
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIST_IDS_MAX, type RecordRow } from '../../../../src/shared/ipc/areas/records';
import { selectedCount } from '../../../../src/renderer/src/features/records/rowSelection';
import { selectedRows } from '../../../../src/renderer/src/features/records/selectedRowsText';
import { useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, openWorkspace, PORTAL_ID, type Workspace } from '../support/recordsWorkspace';
import { sampleRow } from './sampleRow';

useDomTestEnvironment();

const ID_BASE = 1100000000000;
const row = (i: number): RecordRow => sampleRow({ id: String(ID_BASE + i), name: `Dock #${i}` });
const idOf = (i: number) => String(ID_BASE + i);

/** A list of `rows()` ids (read each time, so a test can change it), served as the engine does. */
async function workspaceOf(list: { ids: number[] }, before?: () => void): Promise<Workspace> {
  return openWorkspace({
    overrides: {
      'records.query': ({ offset, limit }) => ({
        rows: list.ids.slice(offset, offset + limit).map(row),
        total: list.ids.length,
      }),
      'records.ids': ({ offset, limit }) => {
        before?.();
        return { ids: list.ids.slice(offset, offset + limit).map(idOf), total: list.ids.length };
      },
    },
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

async function copied(ws: Workspace): Promise<string> {
  let text = '';
  await act(() =>
    ws.store.getState().copySelection(async (written) => {
      text = written;
    }),
  );
  return text;
}

function syncChanged(ws: Workspace): void {
  act(() => ws.store.getState().changed({ portalId: PORTAL_ID, moduleId: MODULE_ID }));
}

describe('the selection of records', () => {
  it('copies the records picked, not the rows a sync moved into their places; those it removed leave the selection', async () => {
    const list = { ids: range(0, 5) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(4)).toBeDefined());
    act(() => {
      ws.store.getState().focusRow(1);
      ws.store.getState().focusRow(3, 'extend');
    });
    // A sync stores two records that sort first, and deletes record 2.
    list.ids = [90_000, 90_001, 0, 1, 3, 4];
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().total).toBe(6));
    expect(await ws.store.getState().picked()).toEqual({ kind: 'rows', ids: [idOf(1), idOf(3)] });
    expect(selectedCount(ws.store.getState().selection, 6)).toBe(2);
    const text = await copied(ws);
    expect(text.split('\r\n').filter(Boolean).slice(1)).toEqual(
      [1, 3].map((i) => expect.stringContaining(`Dock #${i}`) as unknown),
    );
    expect(ws.store.getState().copied).toEqual({
      message: 'Copied 2 rows with the header, tab-separated: paste into any spreadsheet.',
      error: false,
    });
  });

  it('extends a Shift range from the anchor record wherever a sync moved it', async () => {
    const list = { ids: range(0, 5) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(4)).toBeDefined());
    act(() => ws.store.getState().focusRow(2));
    list.ids = [90_000, 90_001, ...range(0, 5)];
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().row(6)).toBeDefined());
    // Shift+click record 4 (now at place 6): records 2 to 4, not the two above record 2.
    act(() => ws.store.getState().focusRow(6, 'extend'));
    expect(await ws.store.getState().picked()).toEqual({ kind: 'rows', ids: [2, 3, 4].map(idOf) });
  });

  it('keeps the anchor on its record when a refresh shortens the list past its place', async () => {
    const list = { ids: range(0, 10) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(9)).toBeDefined());
    act(() => ws.store.getState().focusRow(8));
    // A sync removes records 0 to 3: record 8 is at place 4 of 6.
    list.ids = range(4, 10);
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().row(0)?.id).toBe(idOf(4)));
    act(() => ws.store.getState().focusRow(0, 'extend'));
    expect(await ws.store.getState().picked()).toEqual({
      kind: 'rows',
      ids: [4, 5, 6, 7, 8].map(idOf),
    });
  });

  it('refuses a Shift range whose anchor record moved out of the rows held, instead of starting elsewhere', async () => {
    const list = { ids: range(0, 5_000) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(10)).toBeDefined());
    act(() => ws.store.getState().focusRow(10));
    // The table scrolls far down and the focus moves there (Ctrl+arrows: the selection stays);
    // then a sync stores five records first.
    act(() => {
      ws.store.getState().showRows(3_000, 3_050);
      ws.store.getState().focusRow(3_000, 'move');
    });
    await waitFor(() => expect(ws.store.getState().row(3_000)).toBeDefined());
    list.ids = [90_000, 90_001, 90_002, 90_003, 90_004, ...range(0, 5_000)];
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().row(3_000)?.id).toBe(idOf(2_995)));
    expect(ws.store.getState().row(15)).toBeUndefined();
    act(() => ws.store.getState().focusRow(3_005, 'extend'));
    expect(await ws.store.getState().picked()).toEqual({ kind: 'rows', ids: [idOf(10)] });
    expect(ws.store.getState().selectionNote).toMatch(/started from moved or left the list/);
  });

  it('counts every row but those left out that the list still holds', async () => {
    const list = { ids: range(0, 5) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(4)).toBeDefined());
    act(() => {
      ws.store.getState().selectEverything();
      ws.store.getState().focusRow(2, 'toggle');
    });
    expect(selectedCount(ws.store.getState().selection, 5)).toBe(4);
    // A sync removes the record left out: the four others are still the selection.
    list.ids = [0, 1, 3, 4];
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().total).toBe(4));
    await ws.store.getState().picked();
    expect(selectedCount(ws.store.getState().selection, 4)).toBe(4);
    // Another sync brings it back: it is still left out, as the person chose.
    list.ids = range(0, 5);
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().total).toBe(5));
    expect(await ws.store.getState().picked()).toEqual({ kind: 'every', except: [idOf(2)] });
    expect(selectedCount(ws.store.getState().selection, 5)).toBe(4);
  });

  it('drops from a selection of more than 5,000 records those a sync removed, checking it 5,000 ids a reading', async () => {
    const list = { ids: range(0, 12_000) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(1)).toBeDefined());
    act(() => {
      ws.store.getState().focusRow(1);
      ws.store.getState().focusRow(11_000, 'extend');
    });
    const before = await ws.store.getState().picked();
    expect(before.kind === 'rows' && before.ids.length).toBe(11_000);
    // A sync removes one record of the first 5,000 picked and one of the last.
    list.ids = list.ids.filter((i) => i !== 2 && i !== 10_500);
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().total).toBe(11_998));
    const after = await ws.store.getState().picked();
    expect(after.kind === 'rows' && after.ids.length).toBe(10_998);
    expect(
      after.kind === 'rows' && after.ids.filter((id) => [idOf(2), idOf(10_500)].includes(id)),
    ).toEqual([]);
    expect(selectedCount(ws.store.getState().selection, 11_998)).toBe(10_998);
    const readings = ws.engine.argsOf('records.listed').map((args) => args.ids.length);
    expect(readings).toEqual([5_000, 5_000, 1_000]);
  });

  it('says how many picked records Copy could no longer find', async () => {
    const source = {
      ids: () => Promise.reject(new Error('not read')),
      rows: (ids: string[]) => Promise.resolve(ids.slice(1).map((id) => row(Number(id) - ID_BASE))),
    };
    const read = await selectedRows({ kind: 'rows', ids: [idOf(1), idOf(2), idOf(3)] }, 5, source);
    expect(read.rows.map((r) => r.id)).toEqual([idOf(2), idOf(3)]);
    expect(read.gone).toBe(1);
  });

  it('reads the ids of a range the table does not hold in one reading, and applies later gestures after it', async () => {
    const list = { ids: range(0, 5_000) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(0)).toBeDefined());
    expect(ws.store.getState().row(3_000)).toBeUndefined();
    act(() => {
      ws.store.getState().focusRow(0);
      ws.store.getState().focusRow(3_000, 'extend');
      // Made while the range is read: it applies to the range, not before it.
      ws.store.getState().focusRow(5, 'toggle');
    });
    expect(ws.store.getState().selecting).toBe(true);
    const picked = await ws.store.getState().picked();
    expect(picked).toEqual({
      kind: 'rows',
      ids: range(0, 3_001)
        .filter((i) => i !== 5)
        .map(idOf),
    });
    expect(ws.store.getState().selecting).toBe(false);
    expect(ws.engine.argsOf('records.ids')).toEqual([
      expect.objectContaining({ offset: 0, limit: 3_001 }),
    ]);
  });

  it('selects nothing new, and says so, when a sync moved the rows shown before the range was read', async () => {
    const list = { ids: range(0, 5_000) };
    let syncFirst = true;
    const ws = await workspaceOf(list, () => {
      // The sync's commit lands between the Shift+click and the engine's reading of the range.
      if (syncFirst) list.ids = [90_000, 90_001, ...range(0, 5_000)];
      syncFirst = false;
    });
    await waitFor(() => expect(ws.store.getState().row(0)).toBeDefined());
    act(() => {
      ws.store.getState().focusRow(0);
      ws.store.getState().focusRow(3_000, 'extend');
    });
    const picked = await ws.store.getState().picked();
    expect(picked).toEqual({ kind: 'rows', ids: [idOf(0)] });
    expect(ws.store.getState().selectionNote).toMatch(
      /The list changed while the rows were read.*not changed.*Select the rows again/,
    );
    // Once the refresh is on screen, the same gesture selects from the anchor's record, which
    // the sync moved two places down, to the row at place 3,000.
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().total).toBe(5_002));
    await waitFor(() => expect(ws.store.getState().row(0)?.id).toBe(idOf(90_000)));
    act(() => ws.store.getState().focusRow(3_000, 'extend'));
    const again = await ws.store.getState().picked();
    expect(again).toEqual({ kind: 'rows', ids: range(0, 2_999).map(idOf) });
    expect(ws.store.getState().selectionNote).toBeNull();
  });

  it('selects the row the focus moved onto while it loads, even as a sync changes the total', async () => {
    const list = { ids: range(0, 5_000) };
    const ws = await workspaceOf(list, () => {
      // A sync stores records after the row before the engine reads it.
      list.ids = [...range(0, 5_000), 90_000];
    });
    await waitFor(() => expect(ws.store.getState().row(0)).toBeDefined());
    expect(ws.store.getState().row(4_000)).toBeUndefined();
    act(() => ws.store.getState().focusRow(4_000));
    expect(await ws.store.getState().picked()).toEqual({ kind: 'rows', ids: [idOf(4_000)] });
    expect(ws.store.getState().selectionNote).toBeNull();
  });

  it('keeps gestures being read through a sync refresh of the same list, and Copy too', async () => {
    const list = { ids: range(0, 5_000) };
    const opened: { ws?: Workspace } = {};
    const ws = await workspaceOf(list, () => {
      // The engine says records changed while the range is read (a sync's page, once a second).
      opened.ws?.store.getState().changed({ portalId: PORTAL_ID, moduleId: MODULE_ID });
    });
    opened.ws = ws;
    await waitFor(() => expect(ws.store.getState().row(5)).toBeDefined());
    act(() => {
      ws.store.getState().focusRow(0);
      ws.store.getState().focusRow(3_000, 'extend');
      ws.store.getState().focusRow(5, 'toggle');
    });
    expect(await ws.store.getState().picked()).toEqual({
      kind: 'rows',
      ids: range(0, 3_001)
        .filter((i) => i !== 5)
        .map(idOf),
    });
    expect(ws.store.getState().selectionNote).toBeNull();
    act(() => ws.store.getState().focusRow(1));
    syncChanged(ws);
    const text = await copied(ws);
    expect(ws.store.getState().copied?.error).toBe(false);
    expect(text).toContain('Dock #1');
  });

  it('keeps a record picked again while a check of the selection made before was on its way', async () => {
    const list = { ids: range(0, 5) };
    // The first check after a sync (which records of the selection the list still holds) is
    // answered as of when it was asked, and held back until the test lets it go.
    let release: (() => void) | null = null;
    const ws = await openWorkspace({
      overrides: {
        'records.query': ({ offset, limit }) => ({
          rows: list.ids.slice(offset, offset + limit).map(row),
          total: list.ids.length,
        }),
        'records.listed': ({ ids }) => {
          const held = ids.filter((id) => list.ids.map(idOf).includes(id));
          if (release !== null) return held;
          return new Promise<string[]>((resolve) => {
            release = () => resolve(held);
          });
        },
      },
    });
    await waitFor(() => expect(ws.store.getState().row(4)).toBeDefined());
    act(() => ws.store.getState().focusRow(1));
    // A sync removes record 1: the check asks about it while it is gone.
    list.ids = [0, 2, 3, 4];
    syncChanged(ws);
    await waitFor(() => expect(release).not.toBeNull());
    // The next sync brings it back, and the person clicks it again before that check answers.
    list.ids = range(0, 5);
    syncChanged(ws);
    await waitFor(() => expect(ws.store.getState().row(1)?.id).toBe(idOf(1)));
    await waitFor(() => expect(ws.store.getState().listRefreshing).toBe(false));
    act(() => ws.store.getState().focusRow(1));
    act(() => release?.());
    expect(await ws.store.getState().picked()).toEqual({ kind: 'rows', ids: [idOf(1)] });
    expect(selectedCount(ws.store.getState().selection, 5)).toBe(1);
  });

  it('selects nothing from the old rows while a new list is read, and says so', async () => {
    const list = { ids: range(0, 10) };
    let hold: (() => void) | null = null;
    const ws = await openWorkspace({
      overrides: {
        'records.query': async ({ offset, limit, filter }) => {
          if (filter !== undefined) await new Promise<void>((resolve) => (hold = resolve));
          const ids = filter === undefined ? list.ids : [7, 8, 9];
          return { rows: ids.slice(offset, offset + limit).map(row), total: ids.length };
        },
      },
    });
    await waitFor(() => expect(ws.store.getState().row(3)).toBeDefined());
    act(() =>
      ws.store.getState().applyFilter(
        JSON.stringify({
          criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['x'] }],
          pattern: '1',
        }),
      ),
    );
    act(() => {
      ws.store.getState().focusRow(1);
      ws.store.getState().focusRow(3, 'extend');
    });
    expect(ws.store.getState().selectionNote).toMatch(/new list is still being read.*nothing/);
    act(() => hold?.());
    await waitFor(() => expect(ws.store.getState().total).toBe(3));
    expect(await ws.store.getState().picked()).toEqual({ kind: 'rows', ids: [] });
  });

  it('refuses Ctrl+clicks past the rows that can be picked one by one', async () => {
    const list = { ids: range(0, LIST_IDS_MAX + 10) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(0)).toBeDefined());
    act(() => {
      ws.store.getState().focusRow(0);
      ws.store.getState().focusRow(LIST_IDS_MAX - 1, 'extend');
    });
    await ws.store.getState().picked();
    act(() => ws.store.getState().focusRow(LIST_IDS_MAX + 5, 'toggle'));
    const picked = await ws.store.getState().picked();
    expect(picked.kind === 'rows' && picked.ids.length).toBe(LIST_IDS_MAX);
    expect(ws.store.getState().selectionNote).toMatch(/At most 50,000 rows.*not changed/);
  });

  it('refuses a range too long to name one by one in words, keeping the selection', async () => {
    const list = { ids: range(0, LIST_IDS_MAX * 2) };
    const ws = await workspaceOf(list);
    await waitFor(() => expect(ws.store.getState().row(10)).toBeDefined());
    act(() => {
      ws.store.getState().focusRow(10);
      ws.store.getState().focusRow(10 + LIST_IDS_MAX, 'extend');
    });
    expect(await ws.store.getState().picked()).toEqual({ kind: 'rows', ids: [idOf(10)] });
    expect(ws.store.getState().selectionNote).toMatch(/50,001 rows.*not changed.*Ctrl\+A/);
    expect(ws.engine.argsOf('records.ids')).toEqual([]);
    // Shift+Ctrl+End from the first row is the whole list: every row, whatever it holds later.
    act(() => {
      ws.store.getState().focusRow(0);
      ws.store.getState().focusRow(LIST_IDS_MAX * 2 - 1, 'extend');
    });
    expect(await ws.store.getState().picked()).toEqual({ kind: 'every', except: [] });
    expect(ws.engine.argsOf('records.ids')).toEqual([]);
  });
});
