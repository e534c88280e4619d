// @vitest-environment happy-dom
/**
 * The Configure view's Recycle bin panel over a contract-checked fake engine that keeps one
 * portal's bin (filtering and sorting it as asked): what an item shows (days left of 30, the last
 * day, past its days, queued marks without actions), the sort, module filter and search sent,
 * reading the service first and on "Read again" only, restoring a selection, deleting for good only
 * once confirmed in place, emptying only once the portal's name is typed exactly, the engine's
 * refusals beside their control, and the problem and read time of a list shown as last read.
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
import type { BinEntry, BinListArgs } from '../../../../src/shared/ipc/areas/bin';
import { pass, setupUser, useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000001';
const OTHER_PORTAL_ID = '1000000000002';
const PORTAL_NAME = 'Bluefin';
const HARBOUR = { id: '3001', name: 'Harbour Bridge' };
const FERRY = { id: '3002', name: 'Ferry Terminal' };

function entry(overrides: Partial<BinEntry> & Pick<BinEntry, 'id' | 'name' | 'module'>): BinEntry {
  return {
    project: HARBOUR,
    trashedTime: '2026-11-20T09:12:00.000Z',
    trashedBy: 'Ana Lopez',
    restorableUntil: '2026-12-20T09:12:00.000Z',
    daysLeft: 12,
    restorable: true,
    pending: null,
    ...overrides,
  };
}

function initialBin(): BinEntry[] {
  return [
    entry({ id: '5001', name: 'Foundation pour', module: 'tasks' }),
    entry({
      id: '5002',
      name: 'Crane permit',
      module: 'issues',
      trashedTime: '2026-11-03T08:00:00.000Z',
      trashedBy: 'Ben Okafor',
      // Counted up: 1 is its last day (0 would be past its 30).
      daysLeft: 1,
    }),
    entry({
      id: '5003',
      name: 'Old survey',
      module: 'tasklists',
      project: FERRY,
      trashedTime: '2026-10-01T08:00:00.000Z',
      daysLeft: null,
      restorable: false,
    }),
    entry({
      id: '5004',
      name: 'Ferry Terminal',
      module: 'projects',
      project: null,
      trashedTime: '2026-11-25T08:00:00.000Z',
      daysLeft: 20,
      pending: 'restore',
    }),
    entry({
      id: '5005',
      name: 'Paint rails',
      module: 'tasks',
      trashedTime: '2026-11-22T08:00:00.000Z',
      daysLeft: 3,
      pending: 'delete',
    }),
  ];
}

const portal = (id: string, name: string, isDefault: boolean) => ({
  id,
  accountId: '1',
  dc: 'us',
  name,
  orgName: null,
  timeZone: 'UTC',
  isDefault,
});

/** The engine's bin of one portal: filtered and sorted as asked; actions mark items queued. */
function setup(
  options: { overrides?: FakeHandlers; problem?: string | null; readAt?: string | null } = {},
) {
  const items = initialBin();
  const state = {
    problem: options.problem ?? null,
    readAt:
      options.readAt === undefined
        ? new Date(Date.now() - 5 * 60_000).toISOString()
        : options.readAt,
    emptyQueued: false,
  };
  const mark = (refs: { module: string; id: string }[], pending: 'restore' | 'delete') => {
    for (const ref of refs) {
      const found = items.find((item) => item.module === ref.module && item.id === ref.id);
      if (!found) throw new Error(`No ${ref.module} ${ref.id} in the bin.`);
      found.pending = pending;
    }
    return { queued: new Set(refs.map((ref) => ref.module)).size };
  };
  const list = ({ portalId, sort, filter }: BinListArgs) => {
    const own = portalId === PORTAL_ID ? items : [];
    const search = filter?.search?.toLowerCase();
    const shown = own
      .filter((item) => !filter?.module || item.module === filter.module)
      .filter((item) => !search || item.name.toLowerCase().includes(search))
      .sort((a, b) =>
        sort.by === 'name'
          ? a.name.localeCompare(b.name)
          : (a.trashedTime ?? '').localeCompare(b.trashedTime ?? ''),
      );
    if (sort.descending) shown.reverse();
    return {
      portalId,
      items: structuredClone(shown),
      total: own.length,
      readAt: state.readAt,
      problem: state.problem,
      emptyQueued: portalId === PORTAL_ID && state.emptyQueued,
    };
  };
  const engine = fakeEngine({
    'records.portals': () => [
      portal(PORTAL_ID, PORTAL_NAME, true),
      portal(OTHER_PORTAL_ID, 'Greywater', false),
    ],
    'configure.modules': ({ portalId }) => ({ portalId, modules: [], projects: [HARBOUR, FERRY] }),
    'bin.list': list,
    'bin.restore': ({ items: refs }) => mark(refs, 'restore'),
    'bin.delete': ({ items: refs }) => mark(refs, 'delete'),
    'bin.empty': () => {
      state.emptyQueued = true;
      return { queued: 1 };
    },
    ...options.overrides,
  });
  // The fake engine pushes nothing; the test pushes configure.changed and outbox.changed itself.
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
  const reads = () => engine.argsOf('bin.list');
  const lastRead = () => reads().at(-1);
  return { engine, items, state, push, reads, lastRead };
}

const panel = () => screen.getByRole('region', { name: 'Recycle bin' });
const inPanel = () => within(panel());
/** An item's row, found by the name in its row header (queued marks follow the name). */
const row = (name: string) =>
  inPanel()
    .getByRole('rowheader', { name: new RegExp(`^${name}`) })
    .closest('tr')!;
const cells = (name: string) => [...row(name).children].map((cell) => cell.textContent ?? '');
/** Item names as the table shows them, top to bottom. */
const shownNames = () =>
  inPanel()
    .queryAllByRole('rowheader')
    .map((header) => header.firstChild?.textContent ?? '');
const describedBy = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

async function opened(options?: Parameters<typeof setup>[0]) {
  const result = setup(options);
  await waitFor(() => expect(inPanel().queryAllByRole('rowheader').length).toBeGreaterThan(0));
  return result;
}

describe('the Recycle bin panel', () => {
  it('lists the bin with who trashed what, days left of 30, and queued items without actions', async () => {
    const { reads } = await opened();
    // The first read asks the service, newest first.
    expect(reads()).toEqual([
      { portalId: PORTAL_ID, sort: { by: 'trashed_time', descending: true }, refresh: true },
    ]);
    expect(shownNames()).toEqual([
      'Ferry Terminal',
      'Paint rails',
      'Foundation pour',
      'Crane permit',
      'Old survey',
    ]);
    expect(inPanel().getByRole('columnheader', { name: 'Trashed' }).getAttribute('aria-sort')).toBe(
      'descending',
    );

    const pour = cells('Foundation pour');
    expect(pour[2]).toBe('Task');
    expect(pour[3]).toBe('Harbour Bridge');
    expect(pour[4]).toContain('by Ana Lopez');
    expect(pour[4]).toContain(new Date('2026-11-20T09:12:00.000Z').toLocaleString());
    expect(pour[5]).toBe('12 days left');
    expect(cells('Crane permit')[5]).toBe('Last day');
    expect(cells('Crane permit')[4]).toContain('by Ben Okafor');
    expect(cells('Old survey')[5]).toMatch(/can only be deleted/);
    expect(cells('Old survey')[2]).toBe('Task list');
    expect(cells('Ferry Terminal')[3]).toBe('—');

    // Queued items say so and offer nothing; the others can be selected.
    expect(row('Ferry Terminal').textContent).toContain('Restore queued');
    expect(row('Paint rails').textContent).toContain('Delete queued');
    expect(within(row('Ferry Terminal')).queryByRole('checkbox')).toBeNull();
    expect(within(row('Paint rails')).queryByRole('checkbox')).toBeNull();
    expect(within(row('Foundation pour')).getByRole('checkbox')).toBe(
      inPanel().getByLabelText('Select Foundation pour'),
    );
    expect(row('Foundation pour').textContent).not.toContain('queued');
    expect(panel().textContent).toContain('5 items in the bin');
  });

  it('sends the sort, module filter and search asked for, the search once typing pauses', async () => {
    const user = setupUser();
    const { reads, lastRead } = setup();
    await pass(0);
    await waitFor(() => expect(shownNames()).toHaveLength(5));

    await user.click(inPanel().getByRole('button', { name: 'Name' }));
    await pass(0);
    expect(lastRead()).toEqual({
      portalId: PORTAL_ID,
      sort: { by: 'name', descending: false },
      refresh: false,
    });
    expect(inPanel().getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    expect(inPanel().getByRole('columnheader', { name: 'Trashed' }).getAttribute('aria-sort')).toBe(
      'none',
    );
    expect(shownNames()).toEqual([
      'Crane permit',
      'Ferry Terminal',
      'Foundation pour',
      'Old survey',
      'Paint rails',
    ]);
    await user.click(inPanel().getByRole('button', { name: 'Name' }));
    await pass(0);
    expect(lastRead()?.sort).toEqual({ by: 'name', descending: true });
    expect(shownNames()[0]).toBe('Paint rails');

    await user.selectOptions(inPanel().getByLabelText('Module'), 'Tasks');
    await pass(0);
    expect(lastRead()).toEqual({
      portalId: PORTAL_ID,
      sort: { by: 'name', descending: true },
      filter: { module: 'tasks' },
      refresh: false,
    });
    expect(shownNames()).toEqual(['Paint rails', 'Foundation pour']);

    const before = reads().length;
    const search = inPanel().getByLabelText('Search names');
    expect(search.getAttribute('maxlength')).toBe('200');
    await user.type(search, 'pour');
    // Nothing is asked while typing goes on.
    expect(reads()).toHaveLength(before);
    await pass(199);
    expect(reads()).toHaveLength(before);
    await pass(1);
    expect(reads()).toHaveLength(before + 1);
    expect(lastRead()).toEqual({
      portalId: PORTAL_ID,
      sort: { by: 'name', descending: true },
      filter: { module: 'tasks', search: 'pour' },
      refresh: false,
    });
    expect(shownNames()).toEqual(['Foundation pour']);
    expect(panel().textContent).toContain('1 of 5 items shown');

    await user.selectOptions(inPanel().getByLabelText('Module'), 'All modules');
    await user.clear(search);
    await pass(200);
    expect(lastRead()).toEqual({
      portalId: PORTAL_ID,
      sort: { by: 'name', descending: true },
      refresh: false,
    });
  });

  it('reads the service again only on "Read again"; pushes and other reads use the list kept', async () => {
    const user = userEvent.setup();
    const { reads, lastRead, push } = await opened();
    expect(reads().map((args) => args.refresh)).toEqual([true]);

    await user.click(inPanel().getByRole('button', { name: 'Read again' }));
    await waitFor(() => expect(reads()).toHaveLength(2));

    await push('configure.changed', { portalId: OTHER_PORTAL_ID });
    expect(reads()).toHaveLength(2);
    await push('configure.changed', { portalId: PORTAL_ID });
    await waitFor(() => expect(reads()).toHaveLength(3));
    expect(lastRead()).toEqual({
      portalId: PORTAL_ID,
      sort: { by: 'trashed_time', descending: true },
      refresh: false,
    });
    await push('outbox.changed', {
      counts: { pending: 0, sending: 0, failed: 0, conflict: 0 },
      total: 0,
      workOffline: false,
      online: true,
      nextAttemptAt: null,
      replayed: 1,
      at: 0,
      notice: null,
      remapped: [],
    });
    await waitFor(() => expect(reads()).toHaveLength(4));
    expect(lastRead()?.refresh).toBe(false);

    // Another portal's bin is read from its service the first time.
    await user.selectOptions(screen.getByLabelText('Portal'), 'Greywater');
    await waitFor(() => expect(reads()).toHaveLength(5));
    expect(lastRead()).toEqual({
      portalId: OTHER_PORTAL_ID,
      sort: { by: 'trashed_time', descending: true },
      refresh: true,
    });
    await waitFor(() => expect(panel().textContent).toContain('The bin is empty.'));
  });

  it('restores the selected items, exactly those, and shows them queued', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const restore = inPanel().getByRole('button', { name: 'Restore' });
    expect(restore).toHaveProperty('disabled', true);

    await user.click(inPanel().getByLabelText('Select Crane permit'));
    await user.click(inPanel().getByLabelText('Select Foundation pour'));
    expect(panel().textContent).toContain('2 items selected');
    expect(restore).toHaveProperty('disabled', false);
    await user.click(restore);

    await waitFor(() => expect(engine.argsOf('bin.restore')).toHaveLength(1));
    // In the order shown (newest first), each with its module.
    expect(engine.argsOf('bin.restore')[0]).toEqual({
      portalId: PORTAL_ID,
      items: [
        { module: 'tasks', id: '5001' },
        { module: 'issues', id: '5002' },
      ],
    });
    await waitFor(() => expect(row('Foundation pour').textContent).toContain('Restore queued'));
    expect(row('Crane permit').textContent).toContain('Restore queued');
    expect(within(row('Foundation pour')).queryByRole('checkbox')).toBeNull();
    expect(panel().textContent).toContain('Restoring 2 items is queued in the Outbox.');
    expect(panel().textContent).toContain('No items selected');
    expect(engine.argsOf('bin.delete')).toEqual([]);
  });

  it('selects all shown items open to an action, and will not restore one past its 30 days', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const all = inPanel().getByLabelText('Select all shown');
    await user.click(all);
    expect(panel().textContent).toContain('3 items selected');
    for (const name of ['Foundation pour', 'Crane permit', 'Old survey']) {
      expect(inPanel().getByLabelText(`Select ${name}`)).toHaveProperty('checked', true);
    }
    const restore = inPanel().getByRole('button', { name: 'Restore' });
    expect(restore).toHaveProperty('disabled', true);
    expect(describedBy(restore)).toMatch(/1 item selected is past 30 days and can only be deleted/);

    await user.click(inPanel().getByLabelText('Select Old survey'));
    expect(all).toHaveProperty('indeterminate', true);
    expect(restore).toHaveProperty('disabled', false);
    await user.click(all);
    expect(panel().textContent).toContain('3 items selected');
    await user.click(all);
    expect(panel().textContent).toContain('No items selected');
    expect(engine.argsOf('bin.restore')).toEqual([]);
  });

  it('deletes the selection for good only once confirmed in place', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(inPanel().getByLabelText('Select Old survey'));
    await user.click(inPanel().getByLabelText('Select Crane permit'));
    await user.click(inPanel().getByRole('button', { name: 'Delete for good…' }));
    const confirm = inPanel().getByRole('group', { name: 'Delete 2 items for good' });
    expect(confirm.textContent).toContain('Delete 2 items for good?');
    expect(confirm.textContent).toContain('cannot be undone');
    expect(engine.argsOf('bin.delete')).toEqual([]);
    // The confirmation takes the focus: it is the next step.
    expect(document.activeElement).toBe(
      within(confirm).getByRole('button', { name: 'Delete for good' }),
    );

    await user.click(within(confirm).getByRole('button', { name: 'Keep them' }));
    expect(inPanel().queryByRole('group', { name: /for good/ })).toBeNull();
    expect(engine.argsOf('bin.delete')).toEqual([]);

    await user.click(inPanel().getByRole('button', { name: 'Delete for good…' }));
    await user.click(inPanel().getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(engine.argsOf('bin.delete')).toHaveLength(1));
    expect(engine.argsOf('bin.delete')[0]).toEqual({
      portalId: PORTAL_ID,
      items: [
        { module: 'issues', id: '5002' },
        { module: 'tasklists', id: '5003' },
      ],
    });
    await waitFor(() => expect(row('Old survey').textContent).toContain('Delete queued'));
    expect(inPanel().queryByRole('group', { name: /for good/ })).toBeNull();
    expect(engine.argsOf('bin.restore')).toEqual([]);
  });

  it('empties the bin only once the portal’s name is typed exactly', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(inPanel().getByRole('button', { name: 'Empty the bin…' }));
    const form = inPanel().getByRole('form', { name: 'Empty the recycle bin' });
    expect(form.textContent).toContain('All 5 items in it');
    expect(form.textContent).toContain('cannot be undone');
    const field = within(form).getByLabelText(`Type ${PORTAL_NAME} to confirm`);
    expect(document.activeElement).toBe(field);
    const button = within(form).getByRole('button', { name: /^Empty the bin/ });
    expect(button).toHaveProperty('disabled', true);

    for (const attempt of ['Blue', 'bluefin', 'Bluefin!', 'Blue fin']) {
      await user.clear(field);
      await user.type(field, `${attempt}{Enter}`);
      expect(button).toHaveProperty('disabled', true);
      expect(describedBy(field)).toContain('exactly');
    }
    expect(engine.argsOf('bin.empty')).toEqual([]);

    await user.clear(field);
    await user.type(field, '  Bluefin ');
    expect(button).toHaveProperty('disabled', false);
    expect(describedBy(field)).toBe('The name matches.');
    await user.click(button);
    await waitFor(() => expect(engine.argsOf('bin.empty')).toHaveLength(1));
    expect(engine.argsOf('bin.empty')[0]).toEqual({ portalId: PORTAL_ID, confirmName: 'Bluefin' });
    await waitFor(() =>
      expect(panel().textContent).toContain('Emptying the bin is queued in the Outbox'),
    );
    expect(inPanel().queryByRole('button', { name: 'Empty the bin…' })).toBeNull();
  });

  it('shows a refused restore beside Restore, and a refused delete in its confirmation, in the engine’s words', async () => {
    const user = userEvent.setup();
    const restoreRefusal = 'Crane permit is no longer in the bin on the service; read it again.';
    const deleteRefusal = 'At most 1000 items at once.';
    await opened({
      overrides: {
        'bin.restore': () => {
          throw new Error(restoreRefusal);
        },
        'bin.delete': () => {
          throw new Error(deleteRefusal);
        },
      },
    });
    await user.click(inPanel().getByLabelText('Select Crane permit'));
    const restore = inPanel().getByRole('button', { name: 'Restore' });
    await user.click(restore);
    const alert = await inPanel().findByRole('alert');
    expect(alert.textContent).toBe(restoreRefusal);
    expect(describedBy(restore)).toBe(restoreRefusal);
    // The selection is kept, so it can be tried again.
    expect(inPanel().getByLabelText('Select Crane permit')).toHaveProperty('checked', true);

    await user.click(inPanel().getByRole('button', { name: 'Delete for good…' }));
    await user.click(inPanel().getByRole('button', { name: 'Delete for good' }));
    const confirm = inPanel().getByRole('group', { name: 'Delete 1 item for good' });
    const refused = await within(confirm).findByRole('alert');
    expect(refused.textContent).toBe(deleteRefusal);
    expect(describedBy(within(confirm).getByRole('button', { name: 'Delete for good' }))).toBe(
      deleteRefusal,
    );
  });

  it('shows a refused empty beside its button', async () => {
    const user = userEvent.setup();
    const refusal = 'The typed name is not the portal’s name (Bluefin).';
    await opened({
      overrides: {
        'bin.empty': () => {
          throw new Error(refusal);
        },
      },
    });
    await user.click(inPanel().getByRole('button', { name: 'Empty the bin…' }));
    const form = inPanel().getByRole('form', { name: 'Empty the recycle bin' });
    await user.type(within(form).getByLabelText(`Type ${PORTAL_NAME} to confirm`), 'Bluefin');
    const button = within(form).getByRole('button', { name: /^Empty the bin/ });
    await user.click(button);
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(refusal);
    expect(describedBy(button)).toBe(refusal);
  });

  it('shows the newest read’s answer when an earlier read of the service answers after it', async () => {
    const user = userEvent.setup();
    let answerFirst: () => void = () => undefined;
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    const { reads, lastRead } = setup({
      overrides: {
        'bin.list': async (args) => {
          // The first read of the service is slow; reads of the list kept here are not.
          if (args.refresh) await firstAnswered;
          return {
            portalId: args.portalId,
            items: initialBin().filter(
              (item) => !args.filter?.module || item.module === args.filter.module,
            ),
            total: 5,
            readAt: null,
            problem: null,
            emptyQueued: false,
          };
        },
      },
    });
    const region = await screen.findByRole('region', { name: 'Recycle bin' });
    await user.selectOptions(within(region).getByLabelText('Module'), 'Issues');
    await waitFor(() => expect(shownNames()).toEqual(['Crane permit']));
    await act(async () => answerFirst());
    // The unfiltered answer is not shown; what the service gave is read again with the filter.
    await waitFor(() => expect(reads()).toHaveLength(3));
    expect(lastRead()).toEqual({
      portalId: PORTAL_ID,
      sort: { by: 'trashed_time', descending: true },
      filter: { module: 'issues' },
      refresh: false,
    });
    await waitFor(() => expect(shownNames()).toEqual(['Crane permit']));
  });

  it('says when the list was read, and why it is shown as last read', async () => {
    await opened({
      problem: 'The service cannot be reached (offline).',
      readAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    });
    const problem = inPanel().getByText(/could not be read just now/);
    expect(problem.textContent).toContain('The service cannot be reached (offline)');
    expect(problem.textContent).toContain('The list is as last read (2 h ago)');
    expect(panel().textContent).toContain('Read 2 h ago');
    expect(shownNames()).toHaveLength(5);
  });

  it('says a list never read from the service is not read yet, and shows no problem when there is none', async () => {
    await opened({ readAt: null });
    expect(panel().textContent).toContain('Not read from the service yet');
    expect(inPanel().queryByText(/could not be read/)).toBeNull();
  });

  it('says the read time when the service was read', async () => {
    await opened();
    expect(panel().textContent).toContain('Read 5 min ago');
    expect(inPanel().queryByText(/could not be read/)).toBeNull();
  });
});
