// @vitest-environment happy-dom
/**
 * The statuses editor of one module over a contract-checked fake engine: statuses in order with
 * their colour, type, transitions, records and queued changes; added and edited with each
 * control's problem in the shared rules' words (nothing sent while there is one) and only what
 * changed sent; moved with the keyboard staying on the button; removed only after a preview of
 * the records using them (refused in place when in use or the default); the engine's refusal
 * beside the control that caused it.
 */
import { createElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { StatusesEditor } from '../../../../src/renderer/src/features/configure/StatusesEditor';
import type { Api } from '../../../../src/shared/ipc/contract';
import type { ConfigStatus } from '../../../../src/shared/ipc/areas/configureChoices';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const REF = { portalId: '1000000000001', moduleId: '2001' };
const status = (id: string, name: string, extra: Partial<ConfigStatus> = {}): ConfigStatus => ({
  id,
  name,
  color: '#2a64d6',
  closed: false,
  isDefault: false,
  transitions: [],
  records: 0,
  timelineUses: 0,
  localOnly: false,
  pending: [],
  ...extra,
});

function setup(overrides: FakeHandlers = {}) {
  const statuses: ConfigStatus[] = [
    status('1', 'Open', { isDefault: true, records: 4, transitions: ['2'] }),
    status('2', 'In use', { records: 7, transitions: ['1', '3'] }),
    status('3', 'Done', {
      color: '#00aa00',
      closed: true,
      pending: [
        {
          opId: 9,
          action: 'updateStatuses',
          summary: 'Change “Done”: closed type',
          state: 'failed',
          error: 'Status 3 (Done) is in use.',
        },
      ],
    }),
  ];
  const answer = () => ({
    ...REF,
    fieldId: '5001',
    module: 'Assets',
    statuses: structuredClone(statuses),
  });
  const engine = fakeEngine({
    'configure.statuses': answer,
    'configure.changeStatuses': ({ add, update, move, remove }) => {
      for (const created of add ?? []) {
        statuses.push(
          status(`tmp-st-${'0'.repeat(15)}${statuses.length}`, created.name, {
            color: created.color,
            closed: created.closed,
            transitions: created.transitions,
            localOnly: true,
          }),
        );
      }
      for (const change of update ?? []) {
        const target = statuses.find((s) => s.id === change.id)!;
        Object.assign(target, {
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.color !== undefined ? { color: change.color } : {}),
          ...(change.closed !== undefined ? { closed: change.closed } : {}),
        });
      }
      if (move) {
        const target = statuses.find((s) => s.id === move.id)!;
        statuses.splice(statuses.indexOf(target), 1);
        statuses.splice(move.position - 1, 0, target);
      }
      for (const id of remove ?? [])
        statuses.splice(
          statuses.findIndex((s) => s.id === id),
          1,
        );
      return answer();
    },
    ...overrides,
  });
  const api = { ...engine.api, on: () => () => undefined } as unknown as Api;
  const onClose = vi.fn();
  render(
    createElement(
      ApiContext.Provider,
      { value: api },
      createElement(StatusesEditor, { ...REF, onClose }),
    ),
  );
  return { engine, onClose };
}

async function opened(overrides: FakeHandlers = {}) {
  const result = setup(overrides);
  await screen.findByRole('row', { name: 'Open' });
  return result;
}

const row = (name: string) => screen.getByRole('row', { name });
const cells = (name: string) =>
  within(row(name))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const names = () =>
  screen
    .getAllByRole('row')
    .map((r) => r.getAttribute('aria-labelledby'))
    .filter((id) => id !== null)
    .map((id) => document.getElementById(id!)?.textContent);
const describedBy = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const addForm = () => screen.getByRole('form', { name: 'Add a status' });

describe('the statuses editor', () => {
  it('lists the statuses in order with their type, transitions, records and queued changes', async () => {
    await opened();
    expect(screen.getByRole('heading', { name: 'Statuses of Assets' })).toBeTruthy();
    expect(names()).toEqual(['Open', 'In use', 'Done']);
    expect(cells('In use').slice(1)).toEqual(['2', 'Open', 'Open, Done', '7', expect.any(String)]);
    expect(cells('Done').slice(2, 4)).toEqual(['Closed', 'none']);
    expect(row('Open').textContent).toContain('Default');
    const swatch = row('Done').querySelector('.status-swatch') as HTMLElement;
    expect(swatch.style.background).toContain('#00aa00');
    const queued = within(row('Done')).getByRole('list', { name: 'Queued changes of Done' });
    expect(queued.textContent).toContain('Status 3 (Done) is in use.');
  });

  it('adds a status with its colour, type and transitions; problems in place, nothing sent', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const form = addForm();
    const name = within(form).getByLabelText('Name');
    const colour = within(form).getByLabelText('Colour');
    await user.type(name, 'in USE ');
    await user.clear(colour);
    await user.type(colour, '#12345');
    expect(describedBy(name)).toBe('Status: “in USE” is already a status of this module.');
    expect(describedBy(colour)).toBe(
      'Colour: “#12345” is not a colour like #2a64d6 (a # and six hexadecimal digits).',
    );
    await user.click(within(form).getByRole('button', { name: 'Add status' }));
    expect(engine.argsOf('configure.changeStatuses')).toEqual([]);
    expect(document.activeElement).toBe(name);

    await user.clear(name);
    await user.type(name, 'Review');
    await user.type(colour, 'f');
    await user.click(within(form).getByLabelText(/Closed type/));
    await user.click(within(form).getByLabelText('Open'));
    await user.click(within(form).getByLabelText('Done'));
    await user.click(within(form).getByRole('button', { name: 'Add status' }));
    await waitFor(() => expect(engine.argsOf('configure.changeStatuses')).toHaveLength(1));
    expect(engine.argsOf('configure.changeStatuses')[0]).toEqual({
      ...REF,
      add: [{ name: 'Review', color: '#12345f', closed: true, transitions: ['1', '3'] }],
    });
    const added = await screen.findByRole('row', { name: 'Review' });
    expect(added.textContent).toContain('Not sent yet');
    expect((within(addForm()).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('edits a status in place and sends only what changed', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByRole('button', { name: 'Edit Done' }));
    const form = screen.getByRole('form', { name: 'Edit Done' });
    expect(document.activeElement).toBe(within(form).getByLabelText('Name'));
    // It cannot lead to itself: it is not offered.
    expect(within(form).queryByLabelText('Done')).toBeNull();
    const colour = within(form).getByLabelText('Colour');
    await user.clear(colour);
    await user.type(colour, '#aa0000');
    await user.click(within(form).getByLabelText(/Closed type/));
    await user.click(within(form).getByRole('button', { name: 'Save status' }));
    await waitFor(() => expect(engine.argsOf('configure.changeStatuses')).toHaveLength(1));
    expect(engine.argsOf('configure.changeStatuses')[0]).toEqual({
      ...REF,
      update: [{ id: '3', color: '#aa0000', closed: false }],
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Done' })).toBeNull());
    expect(cells('Done')[2]).toBe('Open');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Done' }));
  });

  it('moves a status down, the keyboard staying with it', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByRole('button', { name: 'Move Open down' }));
    await waitFor(() => expect(names()).toEqual(['In use', 'Open', 'Done']));
    expect(engine.argsOf('configure.changeStatuses')).toEqual([
      { ...REF, move: { id: '1', position: 2 } },
    ]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Open down' }));
  });

  it('removes only after a preview of the records using each; in use or default cannot go', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByLabelText('Select In use for removal'));
    await user.click(screen.getByLabelText('Select Open for removal'));
    await user.click(screen.getByRole('button', { name: 'Remove…' }));
    let preview = screen.getByRole('form', { name: 'Remove statuses' });
    const each = within(preview).getByRole('list', { name: 'Records using each status' });
    expect(
      within(each)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Open: 4 records use this status “Open” is the default status new records start in; it cannot be removed.',
      'In use: 7 records use this status “In use” is the status of 7 mirrored records; move them to another status first.',
    ]);
    const blocked = within(preview).getByRole('button', { name: 'Remove 2 statuses' });
    expect(blocked).toHaveProperty('disabled', true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: 'Remove statuses' })).toBeNull();
    expect(engine.argsOf('configure.changeStatuses')).toEqual([]);

    await user.click(screen.getByLabelText('Select In use for removal'));
    await user.click(screen.getByLabelText('Select Open for removal'));
    await user.click(screen.getByLabelText('Select Done for removal'));
    await user.click(screen.getByRole('button', { name: 'Remove…' }));
    preview = screen.getByRole('form', { name: 'Remove statuses' });
    expect(preview.textContent).toContain('Done: 0 records use this status');
    await user.click(within(preview).getByRole('button', { name: 'Remove 1 status' }));
    await waitFor(() => expect(engine.argsOf('configure.changeStatuses')).toHaveLength(1));
    expect(engine.argsOf('configure.changeStatuses')[0]).toEqual({ ...REF, remove: ['3'] });
    await waitFor(() => expect(names()).toEqual(['Open', 'In use']));
  });

  it("shows the engine's refusal beside the control that caused it", async () => {
    const user = userEvent.setup();
    await opened({
      'configure.changeStatuses': ({ move }) => {
        if (move) throw new Error('The outbox is full: nothing was queued.');
        throw new Error('Status: the mirror is read-only while a backup is restored.');
      },
    });
    await user.click(screen.getByRole('button', { name: 'Move In use up' }));
    await waitFor(() =>
      expect(within(row('In use')).getByRole('alert').textContent).toBe(
        'The outbox is full: nothing was queued.',
      ),
    );
    expect(within(row('Open')).queryByRole('alert')).toBeNull();
    const form = addForm();
    await user.type(within(form).getByLabelText('Name'), 'Review');
    const submit = within(form).getByRole('button', { name: 'Add status' });
    await user.click(submit);
    await waitFor(() =>
      expect(describedBy(submit)).toBe(
        'Status: the mirror is read-only while a backup is restored.',
      ),
    );
  });
});
