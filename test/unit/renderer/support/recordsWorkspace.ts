/**
 * The records workspace as the app assembles it (main.tsx): the real records store over a fake
 * engine holding one portal with one module whose fields cover every filter kind, and the
 * providers the filter panel and value renderers read.
 */
import { createElement, type ReactNode } from 'react';
import { act } from '@testing-library/react';
import type { SavedFilter } from '../../../../src/shared/ipc/areas/records';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { AccountsContext } from '../../../../src/renderer/src/features/accounts/AccountsContext';
import { createAccountsStore } from '../../../../src/renderer/src/features/accounts/accountsStore';
import { RecordsContext } from '../../../../src/renderer/src/features/records/RecordsContext';
import {
  createRecordsStore,
  type RecordsStore,
} from '../../../../src/renderer/src/features/records/recordsStore';
import { fakeEngine, type FakeEngine, type FakeHandlers } from './fakeEngine';

export { COLUMNS, MODULE_ID, PORTAL_ID } from './recordsColumns';
import { COLUMNS, MODULE_ID, PORTAL } from './recordsColumns';

/** A second module, for tests that switch modules. */
export const OTHER_MODULE_ID = '9000000000001';

/** A custom module as `records.modules` lists it. */
export function moduleListing(id: string, pluralName: string) {
  return {
    id,
    apiName: pluralName.toLowerCase(),
    singularName: pluralName.slice(0, -1),
    pluralName,
    isActive: true,
    builtIn: false,
    records: 0,
  };
}

/** `records.modules` answering the workspace's module and OTHER_MODULE_ID. */
export const twoModules = () => [
  moduleListing(MODULE_ID, 'Assets'),
  moduleListing(OTHER_MODULE_ID, 'Vendors'),
];

export interface Workspace {
  engine: FakeEngine;
  store: RecordsStore;
  /** The saved filters the fake engine holds. */
  saved: SavedFilter[];
  /** Wraps a component in the providers main.tsx sets up. */
  wrap(node: ReactNode): ReactNode;
  /** The `filter` of every list the table asked for, oldest first (undefined: every record). */
  listedFilters(): (string | undefined)[];
}

/**
 * `records.ids`, `records.listed` and `records.rows` answered from the test's `records.query`,
 * as the engine answers them from the same list: a range's ids, which ids the list holds, and
 * rows by id in the order asked.
 */
function listedById(query: FakeHandlers['records.query']): FakeHandlers {
  if (!query) return {};
  return {
    'records.ids': async (args) => {
      const window = await query(args);
      return { ids: window.rows.map((row) => row.id), total: window.total };
    },
    'records.listed': async ({ portalId, moduleId, filter, ids }) => {
      const args = { portalId, moduleId, ...(filter === undefined ? {} : { filter }) };
      const { total } = await query({ ...args, offset: 0, limit: 1 });
      const all = total === 0 ? [] : (await query({ ...args, offset: 0, limit: total })).rows;
      const held = new Set(all.map((row) => row.id));
      return [...new Set(ids)].filter((id) => held.has(id));
    },
    'records.rows': async ({ portalId, moduleId, ids }) => {
      const { total } = await query({ portalId, moduleId, offset: 0, limit: 1 });
      const all =
        total === 0 ? [] : (await query({ portalId, moduleId, offset: 0, limit: total })).rows;
      const byId = new Map(all.map((row) => [row.id, row]));
      return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    },
  };
}

/** A loaded workspace: the module is on screen, its columns and saved filters read. */
export async function openWorkspace(
  options: { saved?: SavedFilter[]; overrides?: FakeHandlers } = {},
): Promise<Workspace> {
  const saved = [...(options.saved ?? [])];
  let nextId = Math.max(0, ...saved.map((s) => s.id)) + 1;
  const engine = fakeEngine({
    'records.portals': () => [PORTAL],
    'records.modules': () => [
      {
        id: MODULE_ID,
        apiName: 'assets',
        singularName: 'Asset',
        pluralName: 'Assets',
        isActive: true,
        builtIn: false,
        records: 0,
      },
    ],
    'records.columns': () => COLUMNS,
    'records.recent': () => [],
    'records.latestExport': () => null,
    'records.importsInterrupted': () => [],
    'records.query': () => ({ rows: [], total: 0 }),
    'records.savedFilters': () => [...saved],
    'records.saveFilter': ({ name, filter }) => {
      const updatedAt = '2026-11-22T10:00:00.000Z';
      const existing = saved.find((s) => s.name === name);
      if (existing) Object.assign(existing, { filter, updatedAt });
      else saved.push({ id: nextId++, name, filter, updatedAt });
      saved.sort((a, b) => a.name.localeCompare(b.name));
      return [...saved];
    },
    'records.deleteFilter': ({ id }) => {
      saved.splice(
        saved.findIndex((s) => s.id === id),
        1,
      );
      return [...saved];
    },
    ...listedById(options.overrides?.['records.query']),
    ...options.overrides,
  });
  const store = createRecordsStore(engine.api);
  // The record panel asks the accounts store whether the portal is the demo's (as in the app).
  const accounts = createAccountsStore(engine.api);
  // The shell, as in web mode: the toolbar's Export offers a finished file as a download.
  const shell = createShellStore(engine.api, { connection: 'connected', online: true });
  shell.setState({
    info: {
      name: 'PortalDesk',
      version: '0.0.0-test',
      mode: 'web',
      dataDir: '/tmp/portaldesk-test',
      schemaVersion: 1,
      platform: 'linux',
    },
  });
  await act(() => store.getState().load());
  if (store.getState().columns === null) throw new Error('The workspace did not load its module.');
  return {
    engine,
    store,
    saved,
    wrap: (node) =>
      createElement(
        ShellContext.Provider,
        { value: shell },
        createElement(
          RecordsContext.Provider,
          { value: store },
          createElement(
            ApiContext.Provider,
            { value: engine.api },
            createElement(AccountsContext.Provider, { value: accounts }, node),
          ),
        ),
      ),
    listedFilters: () => engine.argsOf('records.query').map((args) => args.filter),
  };
}
