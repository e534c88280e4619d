// @vitest-environment happy-dom
/**
 * The product's built-in modules (projects, phases, tasklists, tasks, issues) never get records
 * from a sync: the navigation names them in a closed group with one sentence why, never as empty
 * lists with a count; a portal opens on a custom module; a built-in module opened anyway (a place
 * remembered from before) says what it is, reads no records and promises no sync.
 */
import { createElement } from 'react';
import { act, render, screen, within } from '@testing-library/react';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { describe, expect, it } from 'vitest';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { RecordsContext } from '../../../../src/renderer/src/features/records/RecordsContext';
import { RecordsNav } from '../../../../src/renderer/src/features/records/RecordsNav';
import { RecordsView } from '../../../../src/renderer/src/features/records/RecordsView';
import { createRecordsStore } from '../../../../src/renderer/src/features/records/recordsStore';
import { SyncContext } from '../../../../src/renderer/src/features/sync/SyncContext';
import { createSyncStore } from '../../../../src/renderer/src/features/sync/syncStore';
import type { RecordsModule } from '../../../../src/shared/ipc/areas/records';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';
import { COLUMNS, MODULE_ID, PORTAL, PORTAL_ID } from '../support/recordsColumns';

useDomTestEnvironment();

const module = (id: string, plural: string, builtIn: boolean, records = 0): RecordsModule => ({
  id,
  apiName: plural.toLowerCase(),
  singularName: plural.slice(0, -1),
  pluralName: plural,
  isActive: true,
  builtIn,
  records,
});

const PROJECTS = module('1000000000070', 'Projects', true);
const ISSUES = module('1000000000074', 'Issues', true);
const ASSETS = module(MODULE_ID, 'Assets', false);

/** The records section (sidebar navigation and view) over a portal with these modules. */
async function section(modules: RecordsModule[]) {
  const engine = fakeEngine({
    'records.portals': () => [PORTAL],
    'records.modules': () => modules,
    'records.columns': ({ moduleId }) => ({ ...COLUMNS, moduleId }),
    'records.recent': () => [],
    'records.query': () => ({ rows: [], total: 0 }),
    'records.savedFilters': () => [],
  });
  const store = createRecordsStore(engine.api);
  await act(() => store.getState().load());
  render(
    createElement(
      ShellContext.Provider,
      { value: createShellStore(engine.api, { connection: 'connected', online: true }) },
      createElement(
        SyncContext.Provider,
        { value: createSyncStore(engine.api) },
        createElement(
          RecordsContext.Provider,
          { value: store },
          createElement(
            ApiContext.Provider,
            { value: engine.api },
            createElement('nav', { 'aria-label': 'Sections' }, createElement(RecordsNav)),
            createElement('main', null, createElement(RecordsView)),
          ),
        ),
      ),
    ),
  );
  return { engine, store };
}

describe('built-in modules in the records workspace', () => {
  it('are named in a closed group with why, never listed with a count; the portal opens a custom module', async () => {
    // Built-in first, as the service lists them, and no custom module has records yet.
    const { store, engine } = await section([PROJECTS, ASSETS, ISSUES]);
    expect(store.getState().moduleId).toBe(MODULE_ID);
    expect(engine.argsOf('records.query').every((args) => args.moduleId === MODULE_ID)).toBe(true);

    const nav = screen.getByRole('navigation', { name: 'Sections' });
    const listed = within(within(nav).getByRole('list', { name: 'Modules' })).getAllByRole(
      'button',
    );
    expect(listed.map((button) => button.textContent)).toEqual(['Assets0']);

    const group = screen.getByTestId('builtin-modules');
    expect((group as HTMLDetailsElement).open).toBe(false);
    expect(group.querySelector('summary')?.textContent).toBe('Built-in, not mirrored');
    expect(group.textContent).toContain(
      "The service's record endpoints serve custom modules only, so no sync brings records of the built-in ones.",
    );
    const names = within(group).getAllByRole('listitem');
    expect(names.map((item) => [item.textContent, item.getAttribute('title')])).toEqual([
      ['Projects', 'Projects'],
      ['Issues', 'Issues'],
    ]);
    // Names only: nothing to open, no count that reads as "0 records".
    expect(within(group).queryAllByRole('button')).toEqual([]);
    expect(group.textContent).not.toMatch(/\d/);
    expect(nav.textContent).not.toMatch(/run a sync/i);
  });

  it('one opened directly says what it is, reads no records and promises no sync', async () => {
    localStorage.setItem(
      'portaldesk.records.last',
      JSON.stringify({ portalId: PORTAL_ID, moduleId: PROJECTS.id }),
    );
    const { engine } = await section([PROJECTS, ASSETS, ISSUES]);
    const explained = await screen.findByTestId('builtin-module');
    expect(within(explained).getByRole('heading').textContent).toBe(
      'Projects is a built-in module',
    );
    expect(explained.textContent).toContain('serve custom modules only');
    expect(screen.queryByRole('grid')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Filter/ })).toBeNull();
    expect(engine.argsOf('records.query').filter((a) => a.moduleId === PROJECTS.id)).toEqual([]);
    expect(document.body.textContent).not.toMatch(/run a sync|in the mirror yet/i);
  });

  it('a portal with built-in modules only says it has no custom modules', async () => {
    await section([PROJECTS, ISSUES]);
    expect((await screen.findByText('This portal has no custom modules')).tagName).toBe('H2');
    expect(
      within(screen.getByRole('navigation', { name: 'Sections' })).getByText(
        'This portal has no custom modules.',
      ),
    ).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/run a sync/i);
  });
});
