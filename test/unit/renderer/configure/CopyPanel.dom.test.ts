// @vitest-environment happy-dom
/**
 * The Copy configuration panel over a contract-checked fake engine: only custom modules are
 * offered; a plan is asked for the chosen modules and the chosen portal, and reads as counts,
 * calls and items by module (what stays the same only on request, changes as before → after);
 * queuing asks first and sends the reviewed plan's fingerprint; the engine's refusal shows beside
 * the queue button; a file is planned into this portal, one too large is refused without asking
 * the engine; an export offers the engine's file for saving.
 */
import { createElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { ConfigureContext } from '../../../../src/renderer/src/features/configure/ConfigureContext';
import { CopyPanel } from '../../../../src/renderer/src/features/configure/CopyPanel';
import { createConfigureStore } from '../../../../src/renderer/src/features/configure/configureStore';
import type { ConfigModule, ConfigModules } from '../../../../src/shared/ipc/areas/configure';
import type { CopyPlan } from '../../../../src/shared/ipc/areas/configCopy';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000001';
const OTHER_ID = '1000000000002';

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
    projects: [],
    localOnly: false,
    trashedTime: null,
    pending: [],
    ...overrides,
  };
}

const MODULES: ConfigModules = {
  portalId: PORTAL_ID,
  projects: [],
  modules: [
    module({ id: '1001', apiName: 'tasks', pluralName: 'Tasks', builtIn: true }),
    module({ id: '2001', apiName: 'equipment', pluralName: 'Equipment' }),
    module({ id: '2002', apiName: 'vendors', pluralName: 'Vendors', state: 'inactive' }),
    module({ id: '2003', apiName: 'old_things', pluralName: 'Old things', state: 'trashed' }),
  ],
};

function plan(overrides: Partial<CopyPlan> = {}): CopyPlan {
  return {
    targetPortalId: OTHER_ID,
    targetPortal: 'Greywater',
    source: 'Bluefin: Equipment',
    items: [
      {
        key: 'module:equipment',
        module: 'Equipment',
        kind: 'module',
        action: 'alone',
        summary: 'Module “Equipment”: settings the same',
        detail: null,
        changes: [],
        calls: 0,
      },
      {
        key: 'field:equipment/cf_cost',
        module: 'Equipment',
        kind: 'field',
        action: 'change',
        summary: 'Change field “Cost”',
        detail: null,
        changes: [{ setting: 'Mandatory', from: 'no', to: 'yes' }],
        calls: 2,
      },
      {
        key: 'field:equipment/cf_size',
        module: 'Equipment',
        kind: 'field',
        action: 'blocked',
        summary: 'Field “Size”',
        detail: 'It is a number field in the target and a date field here.',
        changes: [],
        calls: 0,
      },
    ],
    counts: { create: 0, change: 1, alone: 1, blocked: 1 },
    calls: [
      { endpoint: 'PUT /settings/fields', calls: 1 },
      { endpoint: 'GET /settings/fields-configuration', calls: 1 },
    ],
    totalCalls: 2,
    minimumMinutes: 0,
    fingerprint: 'abc123',
    ...overrides,
  };
}

const PORTALS = [
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
    id: OTHER_ID,
    accountId: '1',
    dc: 'us',
    name: 'Greywater',
    orgName: null,
    timeZone: 'UTC',
    isDefault: false,
  },
];

async function setup(overrides: FakeHandlers = {}) {
  const engine = fakeEngine({
    'records.portals': () => PORTALS,
    'configure.modules': () => MODULES,
    'configure.planCopy': () => plan(),
    'configure.applyCopy': () => ({
      queued: 1,
      plan: plan({ counts: { create: 0, change: 0, alone: 2, blocked: 1 } }),
    }),
    'configure.exportConfiguration': () => ({
      fileName: 'bluefin-equipment.configuration.json',
      text: '{}',
      modules: 1,
      layouts: 2,
      fields: 5,
    }),
    ...overrides,
  });
  const configure = createConfigureStore(engine.api);
  await configure.getState().load();
  const shell = createShellStore(engine.api, { connection: 'connected', online: true });
  render(
    createElement(
      ShellContext.Provider,
      { value: shell },
      createElement(
        ApiContext.Provider,
        { value: engine.api },
        createElement(
          ConfigureContext.Provider,
          { value: configure },
          createElement(CopyPanel, { modules: MODULES }),
        ),
      ),
    ),
  );
  return { engine, shell };
}

describe('the Copy configuration panel', () => {
  const created: string[] = [];
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => {
      created.push('blob:1');
      return 'blob:1';
    });
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    created.length = 0;
  });

  it('offers custom modules only and plans the chosen ones into the chosen portal', async () => {
    const { engine } = await setup();
    const user = userEvent.setup();
    const choices = within(screen.getByRole('group', { name: 'Custom modules of Bluefin' }));
    expect(choices.getAllByRole('checkbox').map((box) => box.parentElement?.textContent)).toEqual([
      ' Equipment equipment',
      ' Vendors vendors',
    ]);
    const make = screen.getByRole('button', { name: 'Make the plan' });
    expect(make).toHaveProperty('disabled', true);
    expect(screen.getByRole('combobox', { name: 'Copy into' })).toHaveProperty('value', OTHER_ID);
    await user.click(choices.getByRole('checkbox', { name: /Equipment/ }));
    await user.click(make);

    const region = await screen.findByRole('region', {
      name: 'Plan: Bluefin: Equipment → Greywater',
    });
    expect(engine.argsOf('configure.planCopy')).toEqual([
      {
        targetPortalId: OTHER_ID,
        source: { kind: 'portal', portalId: PORTAL_ID, moduleIds: ['2001'] },
      },
    ]);
    expect(region.textContent).toContain('1 to change, 1 the same, 1 item that cannot be copied.');
    expect(region.textContent).toContain('2 calls when the Outbox sends it, within one window');
    // What stays the same is there only on request.
    expect(within(region).queryByText('Module “Equipment”: settings the same')).toBeNull();
    await user.click(within(region).getByRole('checkbox', { name: /Show what stays the same/ }));
    expect(within(region).getByText('Module “Equipment”: settings the same')).toBeTruthy();
    const change = within(region).getByText('Change field “Cost”').closest('li')!;
    expect(change.textContent).toContain('Mandatory: no → yes');
    const blocked = within(region).getByText('Field “Size”').closest('li')!;
    expect(blocked.textContent).toContain('Cannot copy');
    expect(blocked.textContent).toContain('number field in the target');
  });

  it('asks before queuing, sends the reviewed fingerprint, and says what was queued', async () => {
    const { engine } = await setup();
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: /Equipment/ }));
    await user.click(screen.getByRole('button', { name: 'Make the plan' }));
    await user.click(await screen.findByRole('button', { name: 'Queue the plan (1 change)' }));
    expect(engine.argsOf('configure.applyCopy')).toEqual([]);
    expect(
      screen.getByText(/Queue 1 change for Greywater \(1 item that cannot be copied stay out\)/),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Queue them' }));
    await screen.findByText(/Queued 1 change for Greywater/);
    expect(engine.argsOf('configure.applyCopy')).toEqual([
      {
        targetPortalId: OTHER_ID,
        source: { kind: 'portal', portalId: PORTAL_ID, moduleIds: ['2001'] },
        fingerprint: 'abc123',
      },
    ]);
    expect(screen.getByRole('button', { name: 'Open the Outbox' })).toBeTruthy();
  });

  it('shows a refusal to queue beside the queue button', async () => {
    await setup({
      'configure.applyCopy': () => {
        throw new Error('The plan changed since it was made. Nothing was queued.');
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: /Equipment/ }));
    await user.click(screen.getByRole('button', { name: 'Make the plan' }));
    await user.click(await screen.findByRole('button', { name: 'Queue the plan (1 change)' }));
    await user.click(screen.getByRole('button', { name: 'Queue them' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The plan changed since it was made. Nothing was queued.');
    expect(alert.parentElement?.className).toBe('copy-plan__apply');
  });

  it('plans a file into this portal, and refuses one too large without asking the engine', async () => {
    const { engine } = await setup();
    const user = userEvent.setup({ applyAccept: false });
    const input = screen.getByLabelText('Plan a configuration file into Bluefin');
    const big = new File(['x'], 'huge.json', { type: 'application/json' });
    Object.defineProperty(big, 'size', { value: 6_000_000 });
    await user.upload(input, big);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /huge\.json is 6\.0 MB; a configuration file is at most 5 MB/,
    );
    expect(engine.argsOf('configure.planCopy')).toEqual([]);

    await user.upload(input, new File(['{"format":"x"}'], 'team.json'));
    await screen.findByRole('region', { name: /^Plan:/ });
    expect(engine.argsOf('configure.planCopy')).toEqual([
      {
        targetPortalId: PORTAL_ID,
        source: { kind: 'file', name: 'team.json', text: '{"format":"x"}' },
      },
    ]);
  });

  it('exports the chosen modules as a file offered for saving', async () => {
    const { engine } = await setup();
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: /Vendors/ }));
    await user.click(screen.getByRole('button', { name: 'Export as a file' }));
    await waitFor(() => expect(created).toEqual(['blob:1']));
    expect(engine.argsOf('configure.exportConfiguration')).toEqual([
      { portalId: PORTAL_ID, moduleIds: ['2002'] },
    ]);
    expect(screen.getByRole('status').textContent).toBe(
      'Saved bluefin-equipment.configuration.json: 1 module, 2 layouts, 5 custom fields.',
    );
  });
});
