/**
 * The records workspace as the app assembles it (main.tsx): the real records store over a fake
 * engine holding one portal with one module whose fields cover every filter kind, and the
 * providers the filter panel and value renderers read.
 */
import { createElement, type ReactNode } from 'react';
import { act } from '@testing-library/react';
import type {
  RecordsColumns,
  RecordsField,
  SavedFilter,
} from '../../../../src/shared/contracts/records';
import type { FieldKind } from '../../../../src/shared/filter';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { RecordsContext } from '../../../../src/renderer/src/features/records/RecordsContext';
import {
  createRecordsStore,
  type RecordsStore,
} from '../../../../src/renderer/src/features/records/recordsStore';
import { fakeEngine, type FakeEngine, type FakeHandlers } from './fakeEngine';

export const PORTAL_ID = '1000000000001';
export const MODULE_ID = '1000000000002';

const field = (
  key: string,
  label: string,
  type: string,
  filterKind: FieldKind | null,
  options: RecordsField['options'] = [],
): RecordsField => ({ key, label, type, system: false, sortable: true, filterKind, options });

export const COLUMNS: RecordsColumns = {
  portalId: PORTAL_ID,
  moduleId: MODULE_ID,
  timeZone: 'UTC',
  fields: [
    field('name', 'Name', 'name', 'text'),
    field('status', 'Status', 'status', 'status'),
    field('owner', 'Owner', 'owner', 'user'),
    field('created_time', 'Created', 'timestamp', 'datetime'),
    field('cf_cost', 'Cost', 'currency', 'number'),
    field('cf_due', 'Due', 'date', 'date'),
    field('cf_insured', 'Insured', 'check_box', 'boolean'),
    field('cf_category', 'Category', 'pick_list', 'picklist', [
      { id: '31', name: 'Hardware' },
      { id: '32', name: 'Network' },
    ]),
    field('cf_tags', 'Tags', 'multi_select', 'multipicklist', [
      { id: '41', name: 'Critical' },
      { id: '42', name: 'Leased' },
    ]),
    field('cf_watchers', 'Watchers', 'multi_user', 'multipicklist'),
    // Not filterable: the builder must not offer it.
    field('cf_notes', 'Notes', 'multi_line', null),
  ],
  statuses: [
    { id: '2001', name: 'Open', color: '#2a64d6', isClosedType: false },
    { id: '2003', name: 'Approved', color: '#1f8a4c', isClosedType: true },
  ],
  users: [
    { zpuid: '5001', name: 'Maya Raman', email: null },
    { zpuid: '5002', name: 'Jonas Weber', email: null },
  ],
  layouts: [],
};

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

/** A loaded workspace: the module is on screen, its columns and saved filters read. */
export async function openWorkspace(
  options: { saved?: SavedFilter[]; overrides?: FakeHandlers } = {},
): Promise<Workspace> {
  const saved = [...(options.saved ?? [])];
  let nextId = Math.max(0, ...saved.map((s) => s.id)) + 1;
  const engine = fakeEngine({
    'records.portals': () => [
      {
        id: PORTAL_ID,
        accountId: '1',
        dc: 'us',
        name: 'Bluefin',
        orgName: null,
        timeZone: 'UTC',
        isDefault: true,
      },
    ],
    'records.modules': () => [
      {
        id: MODULE_ID,
        apiName: 'assets',
        singularName: 'Asset',
        pluralName: 'Assets',
        isActive: true,
        records: 0,
      },
    ],
    'records.columns': () => COLUMNS,
    'records.recent': () => [],
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
    ...options.overrides,
  });
  const store = createRecordsStore(engine.api);
  await act(() => store.getState().load());
  if (store.getState().columns === null) throw new Error('The workspace did not load its module.');
  return {
    engine,
    store,
    saved,
    wrap: (node) =>
      createElement(
        RecordsContext.Provider,
        { value: store },
        createElement(ApiContext.Provider, { value: engine.api }, node),
      ),
    listedFilters: () => engine.argsOf('records.query').map((args) => args.filter),
  };
}
