// @vitest-environment happy-dom
/**
 * The options editor of one pick list over a contract-checked fake engine: the options in order
 * with their usage and queued changes; several added at once (exact names, problems per line in
 * place and nothing sent while there is one); rename in place; move up and down (the keyboard
 * stays on the button); remove only after a preview of the records that lose them; the engine's
 * refusals beside the control that caused them; re-reading on configure.changed.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { OptionsEditor } from '../../../../src/renderer/src/features/configure/OptionsEditor';
import type { Api } from '../../../../src/shared/ipc/contract';
import type { ConfigOption, OptionAction } from '../../../../src/shared/ipc/areas/configure';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000001';
const MODULE_ID = '2001';
const FIELD_ID = '5010';
const REF = { portalId: PORTAL_ID, moduleId: MODULE_ID, fieldId: FIELD_ID };
/** The temporary id the engine gives the n-th option added here. */
const newId = (n: number) => `tmp-o-${n.toString(16).padStart(16, '0')}`;

const option = (id: string, name: string, records: number): ConfigOption => ({
  id,
  name,
  records,
  localOnly: false,
  pending: [],
});

/** The field's options as the engine keeps them, each change queued as an outbox operation. */
function setup({ overrides = {}, max = 50 }: { overrides?: FakeHandlers; max?: number } = {}) {
  const options: ConfigOption[] = [
    option('6001', 'Steel', 12),
    option('6002', 'Oak', 3),
    {
      ...option('6003', 'Pine', 0),
      pending: [
        {
          opId: 9,
          action: 'renameOptions',
          summary: 'Rename Fir to Pine',
          state: 'failed',
          error: 'An option named Pine already exists on the service.',
        },
      ],
    },
  ];
  let opId = 100;
  let added = 0;
  const queue = (target: ConfigOption, action: OptionAction, summary: string) => {
    target.pending = [
      ...target.pending,
      { opId: ++opId, action, summary, state: 'pending', error: null },
    ];
  };
  const find = (id: string) => {
    const found = options.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`No option ${id}.`);
    return found;
  };
  const answer = () => ({
    ...REF,
    field: 'Material',
    type: 'pick_list',
    max,
    options: structuredClone(options),
  });
  const engine = fakeEngine({
    'configure.fieldOptions': answer,
    'configure.changeOptions': ({ add, rename, move, remove }) => {
      for (const name of add ?? []) {
        const created = { ...option(newId(++added), name, 0), localOnly: true };
        queue(created, 'addOptions', `Add ${name}`);
        options.push(created);
      }
      for (const { id, name } of rename ?? []) {
        const target = find(id);
        target.name = name;
        queue(target, 'renameOptions', `Rename to ${name}`);
      }
      if (move) {
        const target = find(move.id);
        options.splice(options.indexOf(target), 1);
        options.splice(move.position - 1, 0, target);
        queue(target, 'moveOption', `Move to ${move.position}`);
      }
      for (const id of remove ?? []) options.splice(options.indexOf(find(id)), 1);
      return answer();
    },
    ...overrides,
  });
  // The fake engine pushes nothing; the test pushes configure.changed itself.
  const listeners = new Map<string, ((payload: unknown) => void)[]>();
  const api = {
    ...engine.api,
    on: (event: string, listener: (payload: unknown) => void) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return () =>
        listeners.set(
          event,
          (listeners.get(event) ?? []).filter((candidate) => candidate !== listener),
        );
    },
  } as unknown as Api;
  const push = (event: string, payload: unknown) =>
    act(() => listeners.get(event)?.forEach((listener) => listener(payload)));
  const onClose = vi.fn();
  render(
    createElement(
      ApiContext.Provider,
      { value: api },
      createElement(OptionsEditor, { ...REF, onClose }),
    ),
  );
  return { engine, options, push, onClose };
}

async function opened(options: Parameters<typeof setup>[0] = {}) {
  const result = setup(options);
  await screen.findByRole('row', { name: 'Steel' });
  return result;
}

const row = (name: string) => screen.getByRole('row', { name });
const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((tableRow) => tableRow.getAttribute('aria-labelledby'))
    .map((id) => document.getElementById(id ?? '')?.textContent);
const describedBy = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const addBox = () => screen.getByLabelText('New options, one per line');
const addButton = () => screen.getByRole('button', { name: 'Add options' });

describe('the options editor', () => {
  it('lists the options in order with the records using each and their queued changes', async () => {
    const { onClose } = await opened();
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { name: 'Options of Material' })).toBeTruthy();
    expect(names()).toEqual(['Steel', 'Oak', 'Pine']);
    const cells = (name: string) =>
      within(row(name))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Steel').slice(1, 3)).toEqual(['1', '12']);
    expect(cells('Oak').slice(1, 3)).toEqual(['2', '3']);
    expect(screen.getByRole('table').textContent).toContain('3 options of at most 50');
    const refused = within(row('Pine')).getByRole('list', { name: 'Queued changes of Pine' });
    expect(refused.textContent).toContain('refused by the service');
    expect(refused.textContent).toContain('An option named Pine already exists on the service.');
    expect(refused.querySelector('li')?.className).toContain('is-failed');
    // The first cannot go up, the last cannot go down.
    expect(screen.getByRole('button', { name: 'Move Steel up' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Move Pine down' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('adds several options in one call, blank lines ignored, names trimmed', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.type(addBox(), 'Birch{Enter}{Enter}  Walnut {Enter}Ash');
    expect(describedBy(addBox())).toBe('3 new options, added at the end.');
    await user.click(addButton());
    await waitFor(() => expect(engine.argsOf('configure.changeOptions')).toHaveLength(1));
    expect(engine.argsOf('configure.changeOptions')[0]).toEqual({
      ...REF,
      add: ['Birch', 'Walnut', 'Ash'],
    });
    await screen.findByRole('row', { name: 'Walnut' });
    expect(names()).toEqual(['Steel', 'Oak', 'Pine', 'Birch', 'Walnut', 'Ash']);
    expect(row('Ash').textContent).toContain('Not sent yet');
    expect(row('Ash').textContent).toContain('Add Ash');
    expect((addBox() as HTMLTextAreaElement).value).toBe('');
  });

  it('refuses duplicate and over-long lines in place, and sends nothing while there is one', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.type(addBox(), `Birch{Enter}birch{Enter}{Enter}STEEL{Enter}${'x'.repeat(201)}`);
    const problems = describedBy(addBox());
    expect(problems).toContain('Line 2: Option: “birch” is already an option of this field.');
    expect(problems).toContain('Line 4: Option: “STEEL” is already an option of this field.');
    expect(problems).toContain('Line 5: Option: at most 200 characters (201 given).');
    expect(problems).not.toContain('Line 1');
    expect(addBox().getAttribute('aria-invalid')).toBe('true');
    await user.click(addButton());
    expect(engine.argsOf('configure.changeOptions')).toEqual([]);
    expect(document.activeElement).toBe(addBox());

    // Fixed, the same box is sent.
    await user.clear(addBox());
    await user.type(addBox(), 'Birch');
    expect(addBox().getAttribute('aria-invalid')).toBeNull();
    await user.click(addButton());
    await waitFor(() => expect(engine.argsOf('configure.changeOptions')).toHaveLength(1));
    expect(engine.argsOf('configure.changeOptions')[0]).toEqual({ ...REF, add: ['Birch'] });
  });

  it("refuses more options than the field's most, and an empty box", async () => {
    const user = userEvent.setup();
    const { engine } = await opened({ max: 4 });
    await user.click(addButton());
    expect(describedBy(addBox())).toBe('Type at least one name, one per line.');
    await user.type(addBox(), 'Birch{Enter}Ash');
    expect(describedBy(addBox())).toBe(
      'The field holds at most 4 options: 3 now, 2 typed (1 too many).',
    );
    await user.click(addButton());
    expect(engine.argsOf('configure.changeOptions')).toEqual([]);
  });

  it('renames an option in place, its problem shown as the user types', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByRole('button', { name: 'Rename Oak' }));
    const form = screen.getByRole('form', { name: 'Rename Oak' });
    const name = within(form).getByLabelText('Name');
    expect(document.activeElement).toBe(name);
    await user.clear(name);
    await user.type(name, 'steel');
    expect(describedBy(name)).toBe('Option: “steel” is already an option of this field.');
    await user.click(within(form).getByRole('button', { name: 'Rename' }));
    expect(engine.argsOf('configure.changeOptions')).toEqual([]);

    await user.clear(name);
    await user.type(name, 'Oak (oiled) ');
    await user.click(within(form).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(engine.argsOf('configure.changeOptions')).toHaveLength(1));
    expect(engine.argsOf('configure.changeOptions')[0]).toEqual({
      ...REF,
      rename: [{ id: '6002', name: 'Oak (oiled)' }],
    });
    const renamed = await screen.findByRole('row', { name: 'Oak (oiled)' });
    expect(renamed.textContent).toContain('Rename to Oak (oiled)');
    expect(screen.queryByRole('form', { name: /^Rename / })).toBeNull();
    expect(document.activeElement).toBe(
      within(renamed).getByRole('button', { name: 'Rename Oak (oiled)' }),
    );
  });

  it('moves an option up or down to its new 1-based place, the keyboard staying with it', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByRole('button', { name: 'Move Steel down' }));
    await waitFor(() => expect(names()).toEqual(['Oak', 'Steel', 'Pine']));
    expect(engine.argsOf('configure.changeOptions')).toEqual([
      { ...REF, move: { id: '6001', position: 2 } },
    ]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Steel down' }));

    // Up to the top: "up" is disabled there, so "down" takes the keyboard.
    await user.click(screen.getByRole('button', { name: 'Move Steel up' }));
    await waitFor(() => expect(names()).toEqual(['Steel', 'Oak', 'Pine']));
    expect(engine.argsOf('configure.changeOptions')[1]).toEqual({
      ...REF,
      move: { id: '6001', position: 1 },
    });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Steel down' }));
  });

  it('removes the selected options only after a preview of the records that lose them', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const removeButton = screen.getByRole('button', { name: 'Remove…' });
    // Nothing ticked: it says so and opens nothing.
    expect(removeButton.getAttribute('aria-disabled')).toBe('true');
    expect(describedBy(removeButton)).toBe('Tick the options to remove.');
    await user.click(removeButton);
    expect(screen.queryByRole('form', { name: 'Remove options' })).toBeNull();
    await user.click(screen.getByLabelText('Select Steel for removal'));
    await user.click(screen.getByLabelText('Select Oak for removal'));
    await user.click(removeButton);
    expect(engine.argsOf('configure.changeOptions')).toEqual([]);

    const preview = screen.getByRole('form', { name: 'Remove options' });
    expect(preview.textContent).toContain(
      '15 mirrored records use them in total; those records lose the option',
    );
    const each = within(preview).getByRole('list', { name: 'Records using each option' });
    expect(
      within(each)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Steel: 12 records', 'Oak: 3 records']);
    await user.click(within(preview).getByRole('button', { name: 'Remove 2 options' }));
    await waitFor(() => expect(engine.argsOf('configure.changeOptions')).toHaveLength(1));
    expect(engine.argsOf('configure.changeOptions')[0]).toEqual({
      ...REF,
      remove: ['6001', '6002'],
    });
    await waitFor(() => expect(names()).toEqual(['Pine']));
    expect(screen.queryByRole('form', { name: 'Remove options' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove…' }));
  });

  it('sends nothing when the removal preview is cancelled', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByLabelText('Select Pine for removal'));
    await user.click(screen.getByRole('button', { name: 'Remove…' }));
    const preview = screen.getByRole('form', { name: 'Remove options' });
    expect(preview.textContent).toContain('No mirrored record uses them.');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: 'Remove options' })).toBeNull();
    expect(engine.argsOf('configure.changeOptions')).toEqual([]);
    expect(names()).toEqual(['Steel', 'Oak', 'Pine']);
  });

  it("shows the engine's refusal beside the control that caused it", async () => {
    const user = userEvent.setup();
    const { engine } = await opened({
      overrides: {
        'configure.changeOptions': ({ move, remove }) => {
          if (move) throw new Error('Option: this option is being sent; move it once it is.');
          if (remove) throw new Error('The outbox is full: nothing was queued.');
          throw new Error('Add: the mirror is read-only while a backup is restored.');
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Move Oak down' }));
    const down = screen.getByRole('button', { name: 'Move Oak down' });
    await waitFor(() =>
      expect(describedBy(down)).toBe('Option: this option is being sent; move it once it is.'),
    );
    expect(within(row('Oak')).getByRole('alert').textContent).toBe(
      'Option: this option is being sent; move it once it is.',
    );
    expect(within(row('Steel')).queryByRole('alert')).toBeNull();
    expect(names()).toEqual(['Steel', 'Oak', 'Pine']);
    // Refused, the option stays, and so does the keyboard.
    expect(document.activeElement).toBe(down);

    await user.click(screen.getByLabelText('Select Oak for removal'));
    await user.click(screen.getByRole('button', { name: 'Remove…' }));
    const preview = screen.getByRole('form', { name: 'Remove options' });
    const confirm = within(preview).getByRole('button', { name: 'Remove 1 option' });
    await user.click(confirm);
    await waitFor(() =>
      expect(within(preview).getByRole('alert').textContent).toBe(
        'The outbox is full: nothing was queued.',
      ),
    );
    expect(describedBy(confirm)).toBe('The outbox is full: nothing was queued.');

    await user.type(addBox(), 'Birch');
    await user.click(addButton());
    await waitFor(() =>
      expect(describedBy(addButton())).toBe(
        'Add: the mirror is read-only while a backup is restored.',
      ),
    );
    expect(engine.argsOf('configure.changeOptions')).toHaveLength(3);
  });

  it('reads the options again when the configuration changes', async () => {
    const { engine, options, push } = await opened();
    options.push(option('6004', 'Cedar', 5));
    await push('configure.changed', { portalId: '999' });
    await push('configure.changed', { portalId: PORTAL_ID });
    await screen.findByRole('row', { name: 'Cedar' });
    expect(engine.argsOf('configure.fieldOptions')).toHaveLength(2);
  });
});
