// @vitest-environment happy-dom
/**
 * The Configure view's Modules panel over a contract-checked fake engine holding one portal's
 * modules: what a module shows, the New module form (problems in place as the user types, focus
 * on the first on submit, nothing sent while invalid), rename, deactivate and activate, the bin
 * (confirmed in place), recover, delete permanently (nothing asked until the plural name is typed
 * exactly), the engine's refusals beside their control, and re-reading on configure.changed.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { ConfigureContext } from '../../../../src/renderer/src/features/configure/ConfigureContext';
import { ConfigureView } from '../../../../src/renderer/src/features/configure/ConfigureView';
import { createConfigureStore } from '../../../../src/renderer/src/features/configure/configureStore';
import { OutboxContext } from '../../../../src/renderer/src/features/outbox/OutboxContext';
import { createOutboxStore } from '../../../../src/renderer/src/features/outbox/outboxStore';
import type { Api } from '../../../../src/shared/ipc/contract';
import type { ConfigModule, ModuleAction } from '../../../../src/shared/ipc/areas/configure';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000001';
const OTHER_PORTAL_ID = '1000000000002';
const NEW_ID = 'tmp-m-00000000000000a1';
const PROJECTS = [
  { id: '3001', name: 'Harbour Bridge' },
  { id: '3002', name: 'Ferry Terminal' },
];

function module(overrides: Partial<ConfigModule> & Pick<ConfigModule, 'id'>): ConfigModule {
  return {
    apiName: null,
    singularName: 'Thing',
    pluralName: 'Things',
    iconClass: null,
    isGlobal: false,
    isAllProjects: true,
    isOverviewNeeded: false,
    defaultLayoutType: 'public',
    builtIn: false,
    state: 'active',
    records: 0,
    projects: PROJECTS.map((project) => ({ ...project, selected: false })),
    localOnly: false,
    trashedTime: null,
    pending: [],
    ...overrides,
  };
}

function initialModules(): ConfigModule[] {
  return [
    module({
      id: '1001',
      apiName: 'tasks',
      singularName: 'Task',
      pluralName: 'Tasks',
      builtIn: true,
      records: 120,
    }),
    module({
      id: '2001',
      apiName: 'equipment',
      singularName: 'Equipment item',
      pluralName: 'Equipment',
      records: 42,
    }),
    module({
      id: '2002',
      apiName: 'vendors',
      singularName: 'Vendor',
      pluralName: 'Vendors',
      state: 'inactive',
      records: 7,
      pending: [
        {
          opId: 9,
          action: 'update',
          summary: 'Rename to Suppliers',
          state: 'failed',
          error: 'A module named Suppliers already exists on the service.',
        },
      ],
    }),
    module({
      id: '2003',
      apiName: 'retired_assets',
      singularName: 'Retired asset',
      pluralName: 'Retired assets',
      state: 'trashed',
      records: 1350,
      trashedTime: '2026-11-20T09:12:00.000Z',
    }),
  ];
}

/** The portal's modules as the engine keeps them, each change queued as an outbox operation. */
function setup(overrides: FakeHandlers = {}) {
  const modules = initialModules();
  let opId = 100;
  const queue = (target: ConfigModule, action: ModuleAction, summary: string) => {
    target.pending = [
      ...target.pending,
      { opId: ++opId, action, summary, state: 'pending', error: null },
    ];
    return structuredClone(target);
  };
  const find = (id: string) => {
    const found = modules.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`No module ${id}.`);
    return found;
  };
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
      {
        id: OTHER_PORTAL_ID,
        accountId: '1',
        dc: 'us',
        name: 'Greywater',
        orgName: null,
        timeZone: 'UTC',
        isDefault: false,
      },
    ],
    'configure.modules': ({ portalId }) => ({
      portalId,
      modules: portalId === PORTAL_ID ? structuredClone(modules) : [],
      projects: PROJECTS,
    }),
    'configure.createModule': ({ portalId: _portal, isGlobal, projects, ...settings }) => {
      const created = module({
        id: NEW_ID,
        ...settings,
        isGlobal,
        projects: PROJECTS.map((project) => ({
          ...project,
          selected: projects.includes(project.id),
        })),
        localOnly: true,
      });
      modules.push(created);
      return queue(created, 'create', `Create module ${created.pluralName}`);
    },
    'configure.updateModule': ({ moduleId, changes }) => {
      const target = find(moduleId);
      const { projects, ...rest } = changes;
      Object.assign(target, rest);
      if (projects) {
        target.projects = target.projects.map((p) => ({ ...p, selected: projects.includes(p.id) }));
      }
      return queue(target, 'update', `Rename to ${target.pluralName}`);
    },
    'configure.setModuleActive': ({ moduleId, active }) => {
      const target = find(moduleId);
      target.state = active ? 'active' : 'inactive';
      return queue(target, active ? 'activate' : 'deactivate', active ? 'Activate' : 'Deactivate');
    },
    'configure.trashModule': ({ moduleId }) => {
      const target = find(moduleId);
      target.state = 'trashed';
      return queue(target, 'trash', 'Move to the module bin');
    },
    'configure.recoverModule': ({ moduleId }) => {
      const target = find(moduleId);
      target.state = 'active';
      return queue(target, 'recover', 'Recover from the module bin');
    },
    'configure.deleteModule': ({ moduleId }) => {
      modules.splice(modules.indexOf(find(moduleId)), 1);
      return { queued: true as const };
    },
    ...overrides,
  });
  // The fake engine pushes nothing; the test pushes configure.changed itself.
  const listeners = new Map<string, ((payload: unknown) => void)[]>();
  const api = {
    ...engine.api,
    on: (event: string, listener: (payload: unknown) => void) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return () => undefined;
    },
  } as unknown as Api;
  const push = (event: string, payload: unknown) =>
    act(() => listeners.get(event)?.forEach((listener) => listener(payload)));
  const configure = createConfigureStore(api);
  const shell = createShellStore(api, { connection: 'connected', online: true });
  const outbox = createOutboxStore(api);
  render(
    createElement(
      ShellContext.Provider,
      { value: shell },
      createElement(
        ApiContext.Provider,
        { value: api },
        createElement(
          OutboxContext.Provider,
          { value: outbox },
          createElement(
            ConfigureContext.Provider,
            { value: configure },
            createElement(ConfigureView),
          ),
        ),
      ),
    ),
  );
  return { engine, modules, push, shell };
}

const group = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });
const row = (name: string) => screen.getByRole('listitem', { name });
const rowIn = (groupName: string, name: string) =>
  within(group(groupName)).queryByRole('listitem', { name });
const describedBy = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

async function opened() {
  const setupResult = setup();
  await screen.findByRole('heading', { name: 'Modules' });
  return setupResult;
}

describe('the Modules panel', () => {
  it('groups modules and shows what each is, what is queued, and why an action cannot apply', async () => {
    await opened();
    expect(rowIn('Active', 'Tasks')).not.toBeNull();
    expect(rowIn('Active', 'Equipment')).not.toBeNull();
    expect(rowIn('Inactive', 'Vendors')).not.toBeNull();
    expect(rowIn('Module bin', 'Retired assets')).not.toBeNull();
    expect(rowIn('Active', 'Retired assets')).toBeNull();

    const tasks = row('Tasks');
    expect(tasks.textContent).toContain('Built-in');
    expect(tasks.textContent).toContain('one Task');
    expect(tasks.textContent).toContain('tasks');
    expect(tasks.textContent).toContain('120 records');
    for (const label of ['Deactivate', 'Move to bin…']) {
      const button = within(tasks).getByRole('button', { name: label });
      expect(button).toHaveProperty('disabled', true);
      expect(describedBy(button)).toMatch(/product's own modules/);
    }
    expect(within(row('Equipment')).getByRole('button', { name: 'Deactivate' })).toHaveProperty(
      'disabled',
      false,
    );

    const refused = within(row('Vendors')).getByRole('list', { name: /Queued changes/ });
    expect(refused.textContent).toContain('Rename to Suppliers');
    expect(refused.textContent).toContain('refused by the service');
    expect(refused.textContent).toContain('A module named Suppliers already exists');
    expect(refused.querySelector('li')?.className).toContain('is-failed');

    expect(screen.getByRole('note').textContent).toContain('queued in the Outbox');
  });

  it('gives the keyboard back to New module when its form is cancelled', async () => {
    const user = userEvent.setup();
    await opened();
    const button = screen.getByRole('button', { name: 'New module' });
    button.focus();
    await user.keyboard('{Enter}');
    const form = screen.getByRole('form', { name: 'New module' });
    within(form).getByRole('button', { name: 'Cancel' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('form', { name: 'New module' })).toBeNull();
    // Not the body, where the next Tab would start from the top of the page.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New module' }));
  });

  it('creates a module: problems in place as typed, focus on the first, nothing sent while invalid', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByRole('button', { name: 'New module' }));
    const form = screen.getByRole('form', { name: 'New module' });
    const singular = within(form).getByLabelText('Singular name');
    const plural = within(form).getByLabelText('Plural name');

    // A name another module has is said beside the field as it is typed, before any submit.
    await user.type(plural, 'tasks');
    expect(plural.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(plural)).toBe('Plural name: "tasks" is already a name of Tasks.');
    expect(singular.getAttribute('aria-invalid')).toBeNull();

    await user.click(within(form).getByRole('button', { name: 'Create module' }));
    expect(engine.argsOf('configure.createModule')).toEqual([]);
    expect(document.activeElement).toBe(singular);
    expect(singular.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(singular)).toBe('Singular name: required.');

    // Chosen projects: none yet is a problem of the projects control.
    await user.click(within(form).getByLabelText('All projects'));
    await user.type(singular, 'Asset');
    await user.clear(plural);
    await user.type(plural, 'Assets');
    expect(plural.getAttribute('aria-invalid')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Create module' }));
    expect(engine.argsOf('configure.createModule')).toEqual([]);
    const allProjects = within(form).getByLabelText('All projects');
    expect(document.activeElement).toBe(allProjects);
    expect(describedBy(allProjects)).toContain('choose at least one project');

    await user.click(within(form).getByLabelText('Ferry Terminal'));
    expect(allProjects.getAttribute('aria-invalid')).toBeNull();
    await user.type(within(form).getByLabelText('Icon (optional)'), 'fa-box');
    await user.click(within(form).getByLabelText('Show an overview page for each record'));
    await user.click(within(form).getByLabelText('Private'));
    await user.click(within(form).getByRole('button', { name: 'Create module' }));

    await waitFor(() => expect(engine.argsOf('configure.createModule')).toHaveLength(1));
    expect(engine.argsOf('configure.createModule')[0]).toEqual({
      portalId: PORTAL_ID,
      singularName: 'Asset',
      pluralName: 'Assets',
      iconClass: 'fa-box',
      isGlobal: false,
      isAllProjects: false,
      isOverviewNeeded: true,
      defaultLayoutType: 'private',
      projects: ['3002'],
    });
    // The engine's answer shows at once, before any re-read.
    const created = await waitFor(() => row('Assets'));
    expect(rowIn('Active', 'Assets')).not.toBeNull();
    expect(created.textContent).toContain('not created yet');
    expect(created.textContent).toContain('Create module Assets');
    expect(created.textContent).toContain('waiting to be sent');
    expect(screen.queryByRole('form', { name: 'New module' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New module' }));
  });

  it('shows the engine’s refusal of a new module beside the submit button, in its words', async () => {
    const user = userEvent.setup();
    const refusal =
      'Plural name: "Assets" is already a name of Assets (created on the service since the last sync).';
    setup({
      'configure.createModule': () => {
        throw new Error(refusal);
      },
    });
    await screen.findByRole('heading', { name: 'Modules' });
    await user.click(screen.getByRole('button', { name: 'New module' }));
    const form = screen.getByRole('form', { name: 'New module' });
    await user.type(within(form).getByLabelText('Singular name'), 'Asset');
    await user.type(within(form).getByLabelText('Plural name'), 'Assets');
    const submit = within(form).getByRole('button', { name: 'Create module' });
    await user.click(submit);
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(refusal);
    expect(describedBy(submit)).toBe(refusal);
    // The form stays open with what was typed, so it can be corrected.
    expect(within(form).getByLabelText('Plural name')).toHaveProperty('value', 'Assets');
  });

  it('renames a module, sending only the name changed, and refuses a clash in place', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(within(row('Equipment')).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Equipment' });
    const plural = within(form).getByLabelText('Plural name');
    const save = within(form).getByRole('button', { name: 'Save changes' });
    expect(save).toHaveProperty('disabled', true);

    await user.clear(plural);
    await user.type(plural, 'Vendors');
    expect(describedBy(plural)).toBe('Plural name: "Vendors" is already a name of Vendors.');
    await user.click(save);
    expect(engine.argsOf('configure.updateModule')).toEqual([]);
    expect(document.activeElement).toBe(plural);

    await user.clear(plural);
    await user.type(plural, 'Gear');
    await user.click(save);
    await waitFor(() => expect(engine.argsOf('configure.updateModule')).toHaveLength(1));
    expect(engine.argsOf('configure.updateModule')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      changes: { pluralName: 'Gear' },
    });
    const renamed = await waitFor(() => row('Gear'));
    expect(renamed.textContent).toContain('Rename to Gear');
  });

  it('keeps a built-in module’s names read-only', async () => {
    const user = userEvent.setup();
    await opened();
    await user.click(within(row('Tasks')).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Tasks' });
    const plural = within(form).getByLabelText('Plural name');
    expect(plural).toHaveProperty('readOnly', true);
    expect(describedBy(plural)).toContain('its names cannot be changed');
  });

  it('deactivates and activates a module', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(within(row('Equipment')).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(rowIn('Inactive', 'Equipment')).not.toBeNull());
    expect(rowIn('Active', 'Equipment')).toBeNull();
    await user.click(within(row('Vendors')).getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(rowIn('Active', 'Vendors')).not.toBeNull());
    expect(engine.argsOf('configure.setModuleActive')).toEqual([
      { portalId: PORTAL_ID, moduleId: '2001', active: false },
      { portalId: PORTAL_ID, moduleId: '2002', active: true },
    ]);
  });

  it('shows a refused deactivation beside the row’s actions', async () => {
    const user = userEvent.setup();
    setup({
      'configure.setModuleActive': () => {
        throw new Error('Equipment has a deactivation queued already; see the Outbox.');
      },
    });
    await screen.findByRole('heading', { name: 'Modules' });
    await user.click(within(row('Equipment')).getByRole('button', { name: 'Deactivate' }));
    const alert = await within(row('Equipment')).findByRole('alert');
    expect(alert.textContent).toBe('Equipment has a deactivation queued already; see the Outbox.');
    expect(rowIn('Active', 'Equipment')).not.toBeNull();
  });

  it('moves a module to the bin only once confirmed in place', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const equipment = row('Equipment');
    await user.click(within(equipment).getByRole('button', { name: 'Move to bin…' }));
    const confirm = within(equipment).getByRole('group', { name: 'Move Equipment to the bin' });
    expect(engine.argsOf('configure.trashModule')).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(within(equipment).queryByRole('group')).toBeNull();
    expect(engine.argsOf('configure.trashModule')).toEqual([]);

    await user.click(within(equipment).getByRole('button', { name: 'Move to bin…' }));
    await user.click(within(equipment).getByRole('button', { name: 'Move to bin' }));
    await waitFor(() => expect(rowIn('Module bin', 'Equipment')).not.toBeNull());
    expect(engine.argsOf('configure.trashModule')).toEqual([
      { portalId: PORTAL_ID, moduleId: '2001' },
    ]);
  });

  it('recovers a module from the bin', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(within(row('Retired assets')).getByRole('button', { name: 'Recover' }));
    await waitFor(() => expect(rowIn('Active', 'Retired assets')).not.toBeNull());
    expect(rowIn('Module bin', 'Retired assets')).toBeNull();
    expect(row('Retired assets').textContent).toContain('Recover from the module bin');
    expect(engine.argsOf('configure.recoverModule')).toEqual([
      { portalId: PORTAL_ID, moduleId: '2003' },
    ]);
  });

  it('deletes a module for good only once its plural name is typed exactly', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const retired = row('Retired assets');
    await user.click(within(retired).getByRole('button', { name: 'Delete permanently…' }));
    const form = within(retired).getByRole('form', { name: 'Delete Retired assets permanently' });
    expect(form.textContent).toContain('Its 1,350 mirrored records go with it');
    const field = within(form).getByLabelText('Type Retired assets to confirm');
    const button = within(form).getByRole('button', { name: 'Delete permanently' });
    expect(button).toHaveProperty('disabled', true);

    for (const attempt of ['Retired', 'retired assets', 'Retired assets!']) {
      await user.clear(field);
      await user.type(field, `${attempt}{Enter}`);
      expect(button).toHaveProperty('disabled', true);
      expect(describedBy(field)).toContain('exactly');
    }
    expect(engine.argsOf('configure.deleteModule')).toEqual([]);

    await user.clear(field);
    await user.type(field, 'Retired assets');
    expect(button).toHaveProperty('disabled', false);
    await user.click(button);
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Retired assets' })).toBeNull(),
    );
    expect(engine.argsOf('configure.deleteModule')).toEqual([
      { portalId: PORTAL_ID, moduleId: '2003', confirmName: 'Retired assets' },
    ]);
  });

  it('reads the modules again on configure.changed for the portal on screen only, and on outbox.changed', async () => {
    const { engine, modules, push } = await opened();
    const reads = () => engine.argsOf('configure.modules').length;
    const before = reads();
    await push('configure.changed', { portalId: OTHER_PORTAL_ID });
    expect(reads()).toBe(before);

    modules[1]!.pluralName = 'Machinery';
    await push('configure.changed', { portalId: PORTAL_ID });
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Machinery' })).not.toBeNull(),
    );
    // The Modules panel reads again (the Layouts panel's module picker may read too).
    expect(reads()).toBeGreaterThan(before);

    // A replay changes what the pending marks say: the Outbox's push reads again too.
    modules[1]!.pending = [
      {
        opId: 7,
        action: 'update',
        summary: 'Rename to Machinery',
        state: 'failed',
        error: 'Refused.',
      },
    ];
    await push('outbox.changed', {
      counts: { pending: 0, sending: 0, failed: 1, conflict: 0 },
      total: 1,
      workOffline: false,
      online: true,
      nextAttemptAt: null,
      replayed: 0,
      at: 0,
      notice: null,
      remapped: [],
    });
    await waitFor(() =>
      expect(row('Machinery').textContent).toContain('refused by the service: Refused.'),
    );
  });
});
