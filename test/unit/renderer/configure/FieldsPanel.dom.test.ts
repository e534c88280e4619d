// @vitest-environment happy-dom
/**
 * The Configure view's Fields panel over a contract-checked fake engine holding one module's
 * fields and layouts: what a field shows, the New field form (each kind of settings sent exactly;
 * problems in place as the user types, focus on the first on submit, nothing sent while invalid),
 * edit in place (only what changed is sent), system fields (name only, not deleted), delete (where
 * it is used said first, nothing sent until the name is typed exactly), the engine's refusals
 * beside their control, and re-reading on configure.changed.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { FieldsPanel } from '../../../../src/renderer/src/features/configure/FieldsPanel';
import type { Api } from '../../../../src/shared/ipc/contract';
import type {
  ConfigField,
  ConfigLayout,
  FieldAction,
} from '../../../../src/shared/ipc/areas/configure';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000001';
const MODULE_ID = '2001';
/** The temporary id the engine gives the n-th field created here. */
const newId = (n: number) => `tmp-f-${n.toString(16).padStart(16, '0')}`;
const STANDARD = { id: '7001', name: 'Standard layout' };
const FIELD_TEAM = { id: '7002', name: 'Field team' };

function field(overrides: Partial<ConfigField> & Pick<ConfigField, 'id' | 'label'>): ConfigField {
  return {
    mandatory: false,
    pii: false,
    encrypted: false,
    description: null,
    defaultValue: null,
    hasInfo: false,
    currencyListType: null,
    currencyCode: null,
    precision: null,
    userListType: null,
    apiName: null,
    type: 'single_line',
    system: false,
    layouts: [STANDARD],
    localOnly: false,
    pending: [],
    ...overrides,
  };
}

function initialFields(): ConfigField[] {
  return [
    // The service's own type name for a system field: not one of the custom types.
    field({ id: '5001', label: 'Name', apiName: 'name', type: 'name', system: true }),
    field({
      id: '5002',
      label: 'Serial number',
      apiName: 'serial_number',
      mandatory: true,
      pii: true,
      layouts: [STANDARD, FIELD_TEAM],
    }),
    field({
      id: '5003',
      label: 'Purchase price',
      apiName: 'purchase_price',
      type: 'currency',
      encrypted: true,
      currencyListType: 'field_currency',
      currencyCode: 'USD',
      precision: 2,
    }),
    field({
      id: '5004',
      label: 'Owner',
      apiName: 'owner',
      type: 'user_pick_list',
      userListType: 'all_users',
      layouts: [],
      pending: [
        {
          opId: 9,
          action: 'updateField',
          summary: 'Rename to Keeper',
          state: 'failed',
          error: 'A field named Keeper already exists on the service.',
        },
      ],
    }),
  ];
}

function layout(
  base: { id: string; name: string },
  isDefault: boolean,
  sections: [string, string][],
): ConfigLayout {
  return {
    ...base,
    type: 'public',
    isDefault,
    localOnly: false,
    sections: sections.map(([id, name]) => ({ id, name, fields: [], localOnly: false })),
    pending: [],
  };
}

/** The module's fields as the engine keeps them, each change queued as an outbox operation. */
function setup(overrides: FakeHandlers = {}, extra: ConfigField[] = []) {
  const fields = [...initialFields(), ...extra];
  let opId = 100;
  let createdCount = 0;
  const queue = (target: ConfigField, action: FieldAction, summary: string) => {
    target.pending = [
      ...target.pending,
      { opId: ++opId, action, summary, state: 'pending', error: null },
    ];
  };
  const find = (id: string) => {
    const found = fields.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`No field ${id}.`);
    return found;
  };
  const answer = () => ({
    portalId: PORTAL_ID,
    moduleId: MODULE_ID,
    module: 'Equipment',
    fields: structuredClone(fields),
  });
  const engine = fakeEngine({
    'configure.fields': answer,
    'configure.layouts': ({ portalId, moduleId }) => ({
      portalId,
      moduleId,
      module: 'Equipment',
      layouts: [
        layout(STANDARD, true, [
          ['8001', 'Details'],
          ['8002', 'Purchase'],
        ]),
        layout(FIELD_TEAM, false, [['8003', 'Basics']]),
      ],
    }),
    'configure.createField': ({ type, settings, layoutId }) => {
      const created = field({
        id: newId(++createdCount),
        ...settings,
        type,
        layouts: [layoutId === STANDARD.id ? STANDARD : FIELD_TEAM],
        localOnly: true,
      });
      queue(created, 'createField', `Create field ${settings.label}`);
      fields.push(created);
      return answer();
    },
    'configure.updateField': ({ fieldId, changes }) => {
      const target = find(fieldId);
      Object.assign(target, changes);
      queue(target, 'updateField', `Change ${target.label}`);
      return answer();
    },
    'configure.fieldUsage': ({ fieldId }) => ({
      layouts: find(fieldId).layouts,
      records: 37,
    }),
    'configure.deleteField': ({ fieldId }) => {
      fields.splice(fields.indexOf(find(fieldId)), 1);
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
  render(
    createElement(
      ApiContext.Provider,
      { value: api },
      createElement(FieldsPanel, { portalId: PORTAL_ID, moduleId: MODULE_ID }),
    ),
  );
  return { engine, fields, push };
}

const row = (name: string) => screen.getByRole('row', { name });
const describedBy = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

async function opened() {
  const result = setup();
  await screen.findByRole('row', { name: 'Serial number' });
  return result;
}

async function openNewForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'New field' }));
  return screen.getByRole('form', { name: 'New field' });
}

describe('the Fields panel', () => {
  it('lists each field: type, API name, flags, layouts, system badge and queued changes', async () => {
    await opened();
    expect(screen.getByRole('heading', { name: 'Fields of Equipment' })).toBeTruthy();
    const cells = (name: string) =>
      within(row(name))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);

    expect(cells('Serial number')).toEqual([
      'Single-line',
      'serial_number',
      'Yes',
      'Yes',
      'No',
      'Standard layout, Field team',
      expect.any(String),
    ]);
    expect(cells('Purchase price').slice(0, 6)).toEqual([
      'Currency',
      'purchase_price',
      'No',
      'No',
      'Yes',
      'Standard layout',
    ]);
    expect(cells('Owner').slice(0, 1)).toEqual(['User pick list']);
    expect(cells('Owner')[5]).toBe('none');
    expect(row('Name').textContent).toContain('System');
    expect(row('Serial number').textContent).not.toContain('System');

    const refused = within(row('Owner')).getByRole('list', { name: 'Queued changes of Owner' });
    expect(refused.textContent).toContain('Rename to Keeper');
    expect(refused.textContent).toContain('refused by the service');
    expect(refused.textContent).toContain('A field named Keeper already exists on the service.');
    expect(refused.querySelector('li')?.className).toContain('is-failed');
  });

  it('offers every custom type, grouped, and shows currency and user settings only for their types', async () => {
    const user = userEvent.setup();
    await opened();
    const form = await openNewForm(user);
    const type = within(form).getByLabelText('Type') as HTMLSelectElement;
    const groups = [...type.querySelectorAll('optgroup')].map((group) => group.label);
    expect(groups).toEqual(['Text', 'Numbers', 'Choices', 'People', 'Date and time']);
    expect(type.options).toHaveLength(17);

    expect(within(form).queryByLabelText('Currency of a value')).toBeNull();
    expect(within(form).queryByLabelText('Lists')).toBeNull();
    await user.selectOptions(type, 'Currency');
    expect(within(form).getByLabelText('Currency of a value')).toBeTruthy();
    expect(within(form).getByLabelText('Decimals (0–9)')).toBeTruthy();
    expect(within(form).queryByLabelText('Lists')).toBeNull();
    await user.selectOptions(type, 'Multi-user');
    expect(within(form).queryByLabelText('Currency of a value')).toBeNull();
    expect(within(form).getByLabelText('Lists')).toBeTruthy();
    await user.selectOptions(type, 'Check box');
    expect(within(form).getByLabelText('Checked by default').getAttribute('type')).toBe('checkbox');
    // A number is typed as text, so what is not one is said rather than silently dropped.
    await user.selectOptions(type, 'Decimal');
    const fallback = within(form).getByLabelText('Default value (optional)');
    expect(fallback.getAttribute('inputmode')).toBe('decimal');
    await user.type(fallback, '12,5');
    expect(fallback.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(fallback)).toBe('Default value: a number, such as 12.5.');
  });

  it('creates a currency field with its own code and decimals, placed on a chosen section', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const form = await openNewForm(user);
    await user.selectOptions(within(form).getByLabelText('Type'), 'Currency');
    await user.type(within(form).getByLabelText('Name'), '  Resale value ');
    await user.click(within(form).getByLabelText('Encrypted'));
    await user.click(within(form).getByLabelText('Show info'));
    await user.type(within(form).getByLabelText('Description (optional)'), 'What it would fetch');
    await user.type(within(form).getByLabelText('Default value (optional)'), '9.5');
    await user.selectOptions(
      within(form).getByLabelText('Currency of a value'),
      'A currency of its own',
    );
    await user.type(within(form).getByLabelText('Currency code'), 'EUR');
    const decimals = within(form).getByLabelText('Decimals (0–9)');
    await user.clear(decimals);
    await user.type(decimals, '3');
    // The default layout is chosen at first; its sections follow the layout chosen.
    const layoutPicker = within(form).getByLabelText('Layout') as HTMLSelectElement;
    expect(layoutPicker.value).toBe(STANDARD.id);
    await user.selectOptions(layoutPicker, 'Field team');
    await user.selectOptions(within(form).getByLabelText('Section (optional)'), 'Basics');
    await user.click(within(form).getByRole('button', { name: 'Create field' }));

    await waitFor(() => expect(engine.argsOf('configure.createField')).toHaveLength(1));
    expect(engine.argsOf('configure.createField')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: MODULE_ID,
      type: 'currency',
      settings: {
        label: 'Resale value',
        mandatory: false,
        pii: false,
        encrypted: true,
        description: 'What it would fetch',
        defaultValue: 9.5,
        hasInfo: true,
        currencyListType: 'field_currency',
        currencyCode: 'EUR',
        precision: 3,
        userListType: null,
      },
      layoutId: FIELD_TEAM.id,
      sectionId: '8003',
    });
    // The engine's answer shows at once, before any re-read.
    const created = await screen.findByRole('row', { name: 'Resale value' });
    expect(created.textContent).toContain('not created yet');
    expect(created.textContent).toContain('Create field Resale value');
    expect(created.textContent).toContain('waiting to be sent');
    expect(screen.queryByRole('form', { name: 'New field' })).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Resale value is queued');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New field' }));
  });

  it('creates a user field with its list type, and a check box with its default, nothing else', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    let form = await openNewForm(user);
    await user.selectOptions(within(form).getByLabelText('Type'), 'Multi-user');
    await user.type(within(form).getByLabelText('Name'), 'Reviewers');
    await user.click(within(form).getByLabelText('Mandatory'));
    await user.selectOptions(within(form).getByLabelText('Lists'), 'Users of selected roles');
    await user.click(within(form).getByRole('button', { name: 'Create field' }));
    await waitFor(() => expect(engine.argsOf('configure.createField')).toHaveLength(1));
    expect(engine.argsOf('configure.createField')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: MODULE_ID,
      type: 'multi_user',
      settings: {
        label: 'Reviewers',
        mandatory: true,
        pii: false,
        encrypted: false,
        description: null,
        defaultValue: null,
        hasInfo: false,
        currencyListType: null,
        currencyCode: null,
        precision: null,
        userListType: 'selected_roles',
      },
      layoutId: STANDARD.id,
      sectionId: null,
    });

    form = await openNewForm(user);
    await user.selectOptions(within(form).getByLabelText('Type'), 'Check box');
    await user.type(within(form).getByLabelText('Name'), 'Insured');
    await user.click(within(form).getByLabelText('Checked by default'));
    await user.click(within(form).getByRole('button', { name: 'Create field' }));
    await waitFor(() => expect(engine.argsOf('configure.createField')).toHaveLength(2));
    const [, checkBox] = engine.argsOf('configure.createField');
    expect(checkBox?.type).toBe('check_box');
    expect(checkBox?.settings).toMatchObject({
      label: 'Insured',
      defaultValue: true,
      currencyListType: null,
      currencyCode: null,
      precision: null,
      userListType: null,
    });
  });

  it('says each problem beside its control as typed, focuses the first on submit, and sends nothing', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const form = await openNewForm(user);
    const name = within(form).getByLabelText('Name');
    const submit = within(form).getByRole('button', { name: 'Create field' });

    // Before anything is typed or sent, nothing is marked.
    expect(name.getAttribute('aria-invalid')).toBeNull();
    await user.click(submit);
    expect(engine.argsOf('configure.createField')).toEqual([]);
    expect(document.activeElement).toBe(name);
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(name)).toBe('Name: required.');

    // Another field's name, in other capitals, is said as it is typed.
    await user.type(name, 'serial NUMBER');
    expect(describedBy(name)).toBe('Name: “serial NUMBER” is already the name of another field.');

    await user.selectOptions(within(form).getByLabelText('Type'), 'Currency');
    await user.selectOptions(
      within(form).getByLabelText('Currency of a value'),
      'A currency of its own',
    );
    const code = within(form).getByLabelText('Currency code');
    await user.type(code, 'usd');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(code)).toBe('Currency: a three-letter code in capitals, such as USD.');
    const decimals = within(form).getByLabelText('Decimals (0–9)');
    await user.clear(decimals);
    await user.type(decimals, '12');
    expect(describedBy(decimals)).toBe('Decimals: a whole number from 0 to 9.');

    // Fixing the name moves the focus on submit to the next problem, in screen order.
    await user.clear(name);
    await user.type(name, 'Resale value');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    await user.click(submit);
    expect(engine.argsOf('configure.createField')).toEqual([]);
    expect(document.activeElement).toBe(code);

    await user.clear(code);
    await user.type(code, 'EUR');
    await user.click(submit);
    expect(document.activeElement).toBe(decimals);
    expect(engine.argsOf('configure.createField')).toEqual([]);

    await user.clear(decimals);
    await user.type(decimals, '0');
    await user.click(submit);
    await waitFor(() => expect(engine.argsOf('configure.createField')).toHaveLength(1));
    expect(engine.argsOf('configure.createField')[0]?.settings).toMatchObject({
      currencyCode: 'EUR',
      precision: 0,
    });
  });

  it('edits a field in place and sends only what changed, part by part', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByRole('button', { name: 'Edit Serial number' }));
    let form = screen.getByRole('form', { name: 'Edit Serial number' });
    expect(document.activeElement).toBe(within(form).getByLabelText('Name'));
    const save = within(form).getByRole('button', { name: 'Save changes' });
    expect(save).toHaveProperty('disabled', true);
    const name = within(form).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Serial no.');
    await user.click(within(form).getByLabelText('Mandatory'));
    await user.click(save);
    await waitFor(() => expect(engine.argsOf('configure.updateField')).toHaveLength(1));
    expect(engine.argsOf('configure.updateField')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: MODULE_ID,
      fieldId: '5002',
      changes: { label: 'Serial no.', mandatory: false },
    });
    const renamed = await screen.findByRole('row', { name: 'Serial no.' });
    expect(renamed.textContent).toContain('Change Serial no.');
    expect(screen.queryByRole('form', { name: /^Edit / })).toBeNull();
    // The keyboard is back on the button that opened the form.
    expect(document.activeElement).toBe(
      within(renamed).getByRole('button', { name: 'Edit Serial no.' }),
    );

    // A currency's decimals alone: its list type and code are not sent again.
    await user.click(screen.getByRole('button', { name: 'Edit Purchase price' }));
    form = screen.getByRole('form', { name: 'Edit Purchase price' });
    expect((within(form).getByLabelText('Currency code') as HTMLInputElement).value).toBe('USD');
    expect(within(form).queryByLabelText('Type')).toBeNull();
    const decimals = within(form).getByLabelText('Decimals (0–9)');
    await user.clear(decimals);
    await user.type(decimals, '0');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(engine.argsOf('configure.updateField')).toHaveLength(2));
    expect(engine.argsOf('configure.updateField')[1]).toEqual({
      portalId: PORTAL_ID,
      moduleId: MODULE_ID,
      fieldId: '5003',
      changes: { precision: 0 },
    });
  });

  it('lets a system field change its name only, and not be deleted, saying why', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const remove = within(row('Name')).getByRole('button', { name: 'Delete Name…' });
    expect(remove).toHaveProperty('disabled', true);
    expect(describedBy(remove)).toMatch(/system field: only its name can change/);
    expect(
      within(row('Serial number')).getByRole('button', { name: 'Delete Serial number…' }),
    ).toHaveProperty('disabled', false);

    await user.click(within(row('Name')).getByRole('button', { name: 'Edit Name' }));
    const form = screen.getByRole('form', { name: 'Edit Name' });
    expect(form.textContent).toContain('only its name can change');
    for (const label of ['Mandatory', 'Personal data (PII)', 'Encrypted', 'Show info']) {
      expect(within(form).queryByLabelText(label)).toBeNull();
    }
    expect(within(form).queryByLabelText('Description (optional)')).toBeNull();
    const name = within(form).getByLabelText('Name');
    // Its name is checked like any other, though its own type is not a custom one.
    await user.clear(name);
    await user.type(name, 'Owner');
    expect(describedBy(name)).toBe('Name: “Owner” is already the name of another field.');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(engine.argsOf('configure.updateField')).toEqual([]);
    expect(document.activeElement).toBe(name);

    await user.clear(name);
    await user.type(name, 'Asset name');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(engine.argsOf('configure.updateField')).toHaveLength(1));
    expect(engine.argsOf('configure.updateField')[0]?.changes).toEqual({ label: 'Asset name' });
  });

  it('deletes only after saying where the field is used and the name is typed exactly', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByRole('button', { name: 'Delete Serial number…' }));
    const confirm = await screen.findByRole('form', { name: 'Delete Serial number' });
    expect(engine.argsOf('configure.fieldUsage')).toEqual([
      { portalId: PORTAL_ID, moduleId: MODULE_ID, fieldId: '5002' },
    ]);
    expect(confirm.textContent).toContain('on the layouts Standard layout, Field team');
    expect(confirm.textContent).toContain('37 mirrored records hold a value of it');

    const typed = within(confirm).getByLabelText('Type Serial number to confirm');
    const button = within(confirm).getByRole('button', { name: 'Delete field' });
    expect(document.activeElement).toBe(typed);
    expect(button).toHaveProperty('disabled', true);
    await user.type(typed, 'serial number');
    expect(button).toHaveProperty('disabled', true);
    expect(describedBy(button)).toContain("Type the field's name, Serial number, exactly");
    // Enter in the box does not get round the disabled button.
    await user.keyboard('{Enter}');
    expect(engine.argsOf('configure.deleteField')).toEqual([]);

    await user.clear(typed);
    await user.type(typed, 'Serial number');
    expect(button).toHaveProperty('disabled', false);
    await user.click(button);
    await waitFor(() => expect(engine.argsOf('configure.deleteField')).toHaveLength(1));
    expect(engine.argsOf('configure.deleteField')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: MODULE_ID,
      fieldId: '5002',
      confirmName: 'Serial number',
    });
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Serial number' })).toBeNull());
  });

  it("shows the engine's refusal beside the control that asked", async () => {
    const user = userEvent.setup();
    const { engine } = setup({
      'configure.createField': () => {
        throw new Error('The module already has 50 custom fields; delete one first.');
      },
      'configure.fieldUsage': () => {
        throw new Error('The mirror is being rebuilt; try again in a minute.');
      },
    });
    await screen.findByRole('row', { name: 'Serial number' });
    const form = await openNewForm(user);
    await user.type(within(form).getByLabelText('Name'), 'Warranty ends');
    const submit = within(form).getByRole('button', { name: 'Create field' });
    await user.click(submit);
    const refusal = await within(form).findByRole('alert');
    expect(refusal.textContent).toBe('The module already has 50 custom fields; delete one first.');
    expect(submit.getAttribute('aria-describedby')).toBe(refusal.id);
    // The form stays with what was typed, ready for another try.
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Warranty ends');
    expect(engine.argsOf('configure.createField')).toHaveLength(1);

    const remove = within(row('Owner')).getByRole('button', { name: 'Delete Owner…' });
    await user.click(remove);
    const usageError = await within(row('Owner')).findByRole('alert');
    expect(usageError.textContent).toContain('The mirror is being rebuilt');
    expect(describedBy(remove)).toContain('The mirror is being rebuilt');
    expect(screen.queryByRole('form', { name: 'Delete Owner' })).toBeNull();
    expect(engine.argsOf('configure.deleteField')).toEqual([]);
  });

  it('reads again when the portal’s configuration changes, not for another portal', async () => {
    const { engine, fields, push } = await opened();
    const reads = () => engine.argsOf('configure.fields').length;
    const before = reads();
    fields.push(field({ id: '5009', label: 'Warranty ends', type: 'date', apiName: 'warranty' }));
    await push('configure.changed', { portalId: '1000000000002' });
    expect(reads()).toBe(before);
    await push('configure.changed', { portalId: PORTAL_ID });
    await screen.findByRole('row', { name: 'Warranty ends' });
    expect(within(row('Warranty ends')).getAllByRole('cell')[0]?.textContent).toBe('Date');
  });
  it('closes a pick list’s options by Close or Escape, the focus back on its Options button', async () => {
    const material = field({
      id: '5005',
      label: 'Material',
      apiName: 'material',
      type: 'pick_list',
    });
    setup(
      {
        'configure.fieldOptions': ({ portalId, moduleId, fieldId }) => ({
          portalId,
          moduleId,
          fieldId,
          field: 'Material',
          type: 'pick_list',
          max: 50,
          options: [{ id: '6001', name: 'Steel', records: 2, localOnly: false, pending: [] }],
        }),
      },
      [material],
    );
    const user = userEvent.setup();
    const options = await screen.findByRole('button', { name: 'Options of Material' });
    const editor = () => screen.queryByRole('region', { name: /^Options of Material/ });

    await user.click(options);
    await screen.findByText('Steel');
    await user.click(within(editor()!).getByRole('button', { name: 'Close' }));
    expect(editor()).toBeNull();
    // Its own button, not the row's Edit (the keyboard would carry on from the wrong place).
    expect(document.activeElement).toBe(options);

    await user.keyboard('{Enter}');
    await screen.findByText('Steel');
    within(editor()!).getByRole('button', { name: 'Close' }).focus();
    await user.keyboard('{Escape}');
    expect(editor()).toBeNull();
    expect(document.activeElement).toBe(options);

    // Escape from a box holding typed text leaves the editor (and the text) where they are.
    await user.keyboard('{Enter}');
    const lines = await screen.findByLabelText('New options, one per line');
    await user.type(lines, 'Oak');
    await user.keyboard('{Escape}');
    expect(editor()).not.toBeNull();
    expect(lines).toHaveProperty('value', 'Oak');
  });
});
