// @vitest-environment happy-dom
/**
 * Placing and moving fields in the Layouts panel over a contract-checked fake engine: each placed
 * field's Move up and Move down (from the keyboard; disabled at the section's ends; the focus
 * stays with the field), Move to section… (a section and a place, Escape closes it and gives the
 * focus back), each section's Add a field… (only the module's fields not on the layout, at a
 * chosen place; said so when every field is on it), the exact arguments sent, the preview
 * following at once, and the engine's refusal beside the control that asked, in its words.
 */
import { createElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { LayoutsPanel } from '../../../../src/renderer/src/features/configure/LayoutsPanel';
import type { Api } from '../../../../src/shared/ipc/contract';
import type {
  ConfigField,
  ConfigLayout,
  ConfigModule,
  PlacedField,
} from '../../../../src/shared/ipc/areas/configure';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000001';

const MODULE: ConfigModule = {
  id: '2001',
  apiName: 'equipment',
  singularName: 'Equipment',
  pluralName: 'Equipment',
  iconClass: null,
  isGlobal: true,
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
};

const FIELDS: [key: string, label: string, type: string, system?: boolean][] = [
  ['name', 'Equipment name', 'single_line', true],
  ['status', 'Status', 'status', true],
  ['serial', 'Serial number', 'single_line'],
  ['purchased', 'Purchase date', 'date'],
  ['last_service', 'Last service', 'date'],
  ['cost', 'Service cost', 'currency'],
  ['notes', 'Notes', 'multi_line'],
];

const placed = (key: string): PlacedField => {
  const [, label, type, system = false] = FIELDS.find(([candidate]) => candidate === key)!;
  return { key, label, type, system };
};

function layouts(): ConfigLayout[] {
  const base = { type: 'public' as const, localOnly: false, pending: [] };
  return [
    {
      ...base,
      id: '4001',
      name: 'Standard',
      isDefault: true,
      sections: [
        {
          id: '5001',
          name: 'General',
          localOnly: false,
          fields: ['name', 'status', 'serial', 'purchased'].map(placed),
        },
        {
          id: '5002',
          name: 'Maintenance',
          localOnly: false,
          fields: ['last_service', 'cost'].map(placed),
        },
      ],
    },
    {
      ...base,
      id: '4002',
      name: 'Field crew',
      isDefault: false,
      sections: [{ id: '5003', name: 'Basics', localOnly: false, fields: [placed('name')] }],
    },
  ];
}

function setup(overrides: FakeHandlers = {}) {
  const shown = layouts();
  const answer = () => ({
    portalId: PORTAL_ID,
    moduleId: MODULE.id,
    module: MODULE.pluralName,
    layouts: structuredClone(shown),
  });
  const engine = fakeEngine({
    'configure.modules': ({ portalId }) => ({ portalId, modules: [MODULE], projects: [] }),
    'configure.layouts': answer,
    'configure.fields': () => ({
      portalId: PORTAL_ID,
      moduleId: MODULE.id,
      module: MODULE.pluralName,
      fields: FIELDS.map(([key, label, type, system = false], index): ConfigField => ({
        label,
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
        id: String(3000 + index),
        apiName: key,
        type,
        system,
        layouts: shown
          .filter((l) => l.sections.some((s) => s.fields.some((f) => f.key === key)))
          .map((l) => ({ id: l.id, name: l.name })),
        localOnly: false,
        pending: [],
      })),
    }),
    // As the engine's overlay: out of wherever it is, in at the place among the others.
    'configure.placeField': ({ layoutId, fieldKey, mode, sectionId, position }) => {
      const target = shown.find((l) => l.id === layoutId)!;
      for (const section of target.sections) {
        section.fields = section.fields.filter((f) => f.key !== fieldKey);
      }
      target.sections
        .find((s) => s.id === sectionId)!
        .fields.splice(position - 1, 0, placed(fieldKey));
      target.pending.push({
        opId: target.pending.length + 1,
        action: 'placeField',
        summary: `${mode === 'place' ? 'Place' : 'Move'} ${fieldKey}, place ${position}`,
        state: 'pending',
        error: null,
      });
      return answer();
    },
    ...overrides,
  });
  const api = { ...engine.api, on: () => () => undefined } as unknown as Api;
  render(
    createElement(
      ApiContext.Provider,
      { value: api },
      createElement(LayoutsPanel, { portalId: PORTAL_ID, moduleId: MODULE.id }),
    ),
  );
  return { engine };
}

const sectionsOf = (name: string) => screen.getByRole('region', { name: `Sections of ${name}` });
const sectionItem = (layoutName: string, name: string) =>
  within(sectionsOf(layoutName)).getByRole('listitem', { name });
const fieldsOf = (layoutName: string, section: string) =>
  within(
    within(sectionItem(layoutName, section)).getByRole('list', { name: `Fields of ${section}` }),
  )
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-labelledby'))
    .map((id) => document.getElementById(id!)?.textContent);
const preview = (name: string) => screen.getByRole('complementary', { name: `Preview: ${name}` });
const describedBy = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

async function opened(overrides?: FakeHandlers) {
  const result = setup(overrides);
  await screen.findByRole('region', { name: 'Sections of Standard' });
  return result;
}

describe('placing and moving fields in the Layouts panel', () => {
  it('moves a field up and down from the keyboard; the ends are disabled; the focus stays with it', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    expect(screen.getByRole('button', { name: 'Move up: Equipment name' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('button', { name: 'Move down: Purchase date' })).toHaveProperty(
      'disabled',
      true,
    );
    // A system field moves too.
    screen.getByRole('button', { name: 'Move down: Status' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(fieldsOf('Standard', 'General')).toEqual([
        'Equipment name',
        'Serial number',
        'Status',
        'Purchase date',
      ]),
    );
    expect(engine.argsOf('configure.placeField')).toEqual([
      {
        portalId: PORTAL_ID,
        moduleId: '2001',
        layoutId: '4001',
        fieldKey: 'status',
        mode: 'move',
        sectionId: '5001',
        position: 3,
      },
    ]);
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Move down: Status' }),
      ),
    );
    // Down once more reaches the end: the focus goes to its Move up.
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move up: Status' })),
    );
    expect(fieldsOf('Standard', 'General').at(-1)).toBe('Status');
    await user.keyboard(' ');
    await waitFor(() => expect(engine.argsOf('configure.placeField')).toHaveLength(3));
    expect(engine.argsOf('configure.placeField')[2]).toMatchObject({
      fieldKey: 'status',
      position: 3,
    });
    // The preview follows at once.
    const previewText = preview('Standard').textContent ?? '';
    expect(previewText.indexOf('Status')).toBeGreaterThan(previewText.indexOf('Serial number'));
  });

  it('moves a field to another section at a chosen place; Escape closes the choice', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const trigger = screen.getByRole('button', { name: 'Move to section: Serial number' });
    await user.click(trigger);
    let form = screen.getByRole('form', { name: 'Move Serial number to another section' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: /Move Serial number/ })).toBeNull();
    expect(document.activeElement).toBe(trigger);

    await user.click(trigger);
    form = screen.getByRole('form', { name: 'Move Serial number to another section' });
    const section = within(form).getByLabelText<HTMLSelectElement>('Section');
    expect([...section.options].map((o) => o.textContent)).toEqual(['Maintenance']);
    const place = within(form).getByLabelText<HTMLSelectElement>('Place in Maintenance');
    expect([...place.options].map((o) => o.textContent)).toEqual(['1 (first)', '2', '3 (last)']);
    expect(place.value).toBe('3');
    await user.selectOptions(place, '2');
    await user.click(within(form).getByRole('button', { name: 'Move Serial number' }));
    await waitFor(() =>
      expect(fieldsOf('Standard', 'Maintenance')).toEqual([
        'Last service',
        'Serial number',
        'Service cost',
      ]),
    );
    expect(engine.argsOf('configure.placeField')).toEqual([
      expect.objectContaining({ fieldKey: 'serial', mode: 'move', sectionId: '5002', position: 2 }),
    ]);
    expect(fieldsOf('Standard', 'General')).not.toContain('Serial number');
    expect(screen.queryByRole('form', { name: /Move Serial number/ })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Move to section: Serial number' }),
      ),
    );
  });

  it('adds a field of the module not on the layout, at a chosen place; says when every field is on it', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const maintenance = sectionItem('Standard', 'Maintenance');
    await user.click(within(maintenance).getByRole('button', { name: 'Add a field…' }));
    const form = await screen.findByRole('form', { name: 'Add a field to Maintenance' });
    const choice = await within(form).findByLabelText<HTMLSelectElement>('Field to add');
    // Only what no section of Standard holds.
    expect([...choice.options].map((o) => o.textContent)).toEqual(['Notes (multi_line)']);
    await user.selectOptions(within(form).getByLabelText('Place in Maintenance'), '1');
    await user.click(within(form).getByRole('button', { name: 'Add to section' }));
    await waitFor(() =>
      expect(fieldsOf('Standard', 'Maintenance')).toEqual([
        'Notes',
        'Last service',
        'Service cost',
      ]),
    );
    expect(engine.argsOf('configure.placeField')).toEqual([
      {
        portalId: PORTAL_ID,
        moduleId: '2001',
        layoutId: '4001',
        fieldKey: 'notes',
        mode: 'place',
        sectionId: '5002',
        position: 1,
      },
    ]);
    expect(preview('Standard').textContent).toContain('Notes');
    expect(screen.queryByRole('form', { name: 'Add a field to Maintenance' })).toBeNull();

    // Every field is on Standard now.
    await user.click(
      within(sectionItem('Standard', 'General')).getByRole('button', { name: 'Add a field…' }),
    );
    const none = await screen.findByRole('form', { name: 'Add a field to General' });
    await waitFor(() =>
      expect(none.textContent).toContain('Every field of Equipment is on Standard.'),
    );
    expect(within(none).queryByRole('button', { name: 'Add to section' })).toBeNull();
  });

  it('offers on another layout the fields it lacks, system ones included', async () => {
    const user = userEvent.setup();
    await opened();
    await user.click(screen.getByRole('button', { name: 'Sections and preview of Field crew' }));
    const basics = sectionItem('Field crew', 'Basics');
    await user.click(within(basics).getByRole('button', { name: 'Add a field…' }));
    const choice = await screen.findByLabelText<HTMLSelectElement>('Field to add');
    expect([...choice.options].map((o) => o.value)).toEqual([
      'status',
      'serial',
      'purchased',
      'last_service',
      'cost',
      'notes',
    ]);
    // The only field of Basics: no move within it, and no other section to move to.
    expect(screen.getByRole('button', { name: 'Move up: Equipment name' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('button', { name: 'Move down: Equipment name' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.queryByRole('button', { name: 'Move to section: Equipment name' })).toBeNull();
  });

  it("shows the engine's refusal beside the control that asked, in its words", async () => {
    const user = userEvent.setup();
    const { engine } = await opened({
      'configure.placeField': () => {
        throw new Error(
          'Place 3: Service cost can go at places 1 to 2 of Maintenance. Nothing was queued.',
        );
      },
      'configure.fields': () => {
        throw new Error('Module 2001 is not in this portal’s configuration here.');
      },
    });
    const down = screen.getByRole('button', { name: 'Move down: Last service' });
    await user.click(down);
    await waitFor(() => expect(describedBy(down)).toContain('can go at places 1 to 2'));
    const item = within(sectionItem('Standard', 'Maintenance')).getByRole('listitem', {
      name: 'Last service',
    });
    expect(within(item).getByRole('alert').textContent).toContain('Nothing was queued.');
    expect(fieldsOf('Standard', 'Maintenance')).toEqual(['Last service', 'Service cost']);
    expect(engine.argsOf('configure.placeField')).toHaveLength(1);

    const general = sectionItem('Standard', 'General');
    await user.click(within(general).getByRole('button', { name: 'Add a field…' }));
    await waitFor(() =>
      expect(within(general).getByRole('alert').textContent).toContain(
        'is not in this portal’s configuration here',
      ),
    );
  });
});
