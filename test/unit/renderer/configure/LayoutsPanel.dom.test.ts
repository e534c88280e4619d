// @vitest-environment happy-dom
/**
 * The Layouts panel over a contract-checked fake engine holding one portal's modules and their
 * layouts, each change laid over at once and queued as an outbox operation: the module picker
 * (active modules only), what a layout shows, New layout (a name problem in place and nothing
 * sent, then the exact arguments), rename, make default, delete (disabled with its reason for the
 * default and the last layout, asked in place), sections (add, move, delete, the last one kept),
 * a field taken off after confirming, the live preview following each change, and the engine's
 * refusals beside the control that caused them.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { LayoutsPanel } from '../../../../src/renderer/src/features/configure/LayoutsPanel';
import type { Api } from '../../../../src/shared/ipc/contract';
import type {
  ConfigLayout,
  ConfigLayouts,
  ConfigModule,
  LayoutAction,
  PlacedField,
} from '../../../../src/shared/ipc/areas/configure';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000001';
const NEW_LAYOUT_ID = 'tmp-l-00000000000000b1';

function module(overrides: Partial<ConfigModule> & Pick<ConfigModule, 'id'>): ConfigModule {
  return {
    apiName: null,
    singularName: 'Thing',
    pluralName: 'Things',
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
    ...overrides,
  };
}

const MODULES = [
  module({ id: '2001', apiName: 'equipment', pluralName: 'Equipment' }),
  module({ id: '1001', apiName: 'tasks', pluralName: 'Tasks', builtIn: true }),
  module({ id: '2002', apiName: 'vendors', pluralName: 'Vendors', state: 'inactive' }),
];

const field = (key: string, label: string, type: string, system = false): PlacedField => ({
  key,
  label,
  type,
  system,
});

function layout(
  overrides: Partial<ConfigLayout> & Pick<ConfigLayout, 'id' | 'name'>,
): ConfigLayout {
  return {
    type: 'public',
    isDefault: false,
    localOnly: false,
    sections: [],
    pending: [],
    ...overrides,
  };
}

function initialLayouts(): Map<string, ConfigLayout[]> {
  return new Map([
    [
      '2001',
      [
        layout({
          id: '4001',
          name: 'Standard',
          isDefault: true,
          sections: [
            {
              id: '5001',
              name: 'General',
              localOnly: false,
              fields: [
                field('name', 'Equipment name', 'single_line', true),
                field('status', 'Status', 'status', true),
                field('serial', 'Serial number', 'single_line'),
                field('purchased', 'Purchase date', 'date'),
              ],
            },
            {
              id: '5002',
              name: 'Maintenance',
              localOnly: false,
              fields: [
                field('last_service', 'Last service', 'date'),
                field('cost', 'Service cost', 'currency'),
              ],
            },
          ],
        }),
        layout({
          id: '4002',
          name: 'Field crew',
          type: 'private',
          sections: [
            {
              id: '5003',
              name: 'Basics',
              localOnly: false,
              fields: [field('name', 'Equipment name', 'single_line', true)],
            },
          ],
        }),
        layout({
          id: 'tmp-l-00000000000000a1',
          name: 'Draft',
          localOnly: true,
          pending: [
            {
              opId: 7,
              action: 'createLayout',
              summary: 'Create layout Draft',
              state: 'failed',
              error: 'The module allows at most 10 layouts.',
            },
          ],
          sections: [
            {
              id: 'tmp-s-00000000000000a1',
              name: 'Notes',
              localOnly: true,
              fields: [],
            },
          ],
        }),
      ],
    ],
    [
      '1001',
      [
        // Its only layout; not (yet) known as the default, so only "last" keeps it.
        layout({
          id: '4101',
          name: 'Task form',
          sections: [{ id: '5101', name: 'Task', localOnly: false, fields: [] }],
        }),
      ],
    ],
  ]);
}

/** The portal's modules and layouts as the engine keeps them, each change queued. */
function setup({
  moduleId = '2001',
  overrides = {},
}: { moduleId?: string; overrides?: FakeHandlers } = {}) {
  const byModule = initialLayouts();
  let opId = 100;
  let newSection = 0xc0;
  const listOf = (moduleId: string) => {
    const list = byModule.get(moduleId);
    if (!list) throw new Error(`No layouts of module ${moduleId}.`);
    return list;
  };
  const answer = (moduleId: string): ConfigLayouts => ({
    portalId: PORTAL_ID,
    moduleId,
    module: MODULES.find((candidate) => candidate.id === moduleId)!.pluralName,
    layouts: structuredClone(listOf(moduleId)),
  });
  const find = (moduleId: string, layoutId: string) => {
    const found = listOf(moduleId).find((candidate) => candidate.id === layoutId);
    if (!found) throw new Error(`No layout ${layoutId}.`);
    return found;
  };
  const queue = (target: ConfigLayout, action: LayoutAction, summary: string) => {
    target.pending = [
      ...target.pending,
      { opId: ++opId, action, summary, state: 'pending', error: null },
    ];
  };
  const engine = fakeEngine({
    'configure.modules': ({ portalId }) => ({
      portalId,
      modules: structuredClone(MODULES),
      projects: [],
    }),
    'configure.layouts': ({ moduleId }) => answer(moduleId),
    'configure.createLayout': ({ moduleId, name, type, referenceId }) => {
      const reference = referenceId === null ? null : find(moduleId, referenceId);
      const created = layout({
        id: NEW_LAYOUT_ID,
        name,
        type,
        localOnly: true,
        sections: (reference?.sections ?? []).map((section, index) => ({
          ...structuredClone(section),
          id: `tmp-s-00000000000000${(0xd0 + index).toString(16)}`,
          localOnly: true,
        })),
      });
      queue(created, 'createLayout', `Create layout ${name}`);
      listOf(moduleId).push(created);
      return answer(moduleId);
    },
    'configure.updateLayout': ({ moduleId, layoutId, changes }) => {
      const target = find(moduleId, layoutId);
      if (changes.name !== undefined) target.name = changes.name;
      if (changes.type !== undefined) target.type = changes.type;
      if (changes.makeDefault) {
        for (const other of listOf(moduleId)) other.isDefault = other === target;
      }
      queue(target, 'updateLayout', changes.makeDefault ? 'Make default' : 'Change layout');
      return answer(moduleId);
    },
    'configure.deleteLayout': ({ moduleId, layoutId }) => {
      const list = listOf(moduleId);
      list.splice(list.indexOf(find(moduleId, layoutId)), 1);
      return answer(moduleId);
    },
    'configure.putSection': ({ moduleId, layoutId, sectionId, name, position }) => {
      const target = find(moduleId, layoutId);
      let section = target.sections.find((candidate) => candidate.id === sectionId);
      if (!section) {
        section = {
          id: `tmp-s-00000000000000${(newSection++).toString(16)}`,
          name,
          fields: [],
          localOnly: true,
        };
        target.sections.push(section);
      }
      section.name = name;
      if (position !== undefined) {
        target.sections.splice(target.sections.indexOf(section), 1);
        target.sections.splice(position - 1, 0, section);
      }
      queue(target, 'putSection', `Section ${name}`);
      return answer(moduleId);
    },
    'configure.deleteSection': ({ moduleId, layoutId, sectionId }) => {
      const target = find(moduleId, layoutId);
      const index = target.sections.findIndex((candidate) => candidate.id === sectionId);
      const [gone] = target.sections.splice(index, 1);
      target.sections[Math.max(0, index - 1)]!.fields.push(...gone!.fields);
      queue(target, 'deleteSection', `Delete section ${gone!.name}`);
      return answer(moduleId);
    },
    'configure.removeLayoutField': ({ moduleId, layoutId, fieldKey }) => {
      const target = find(moduleId, layoutId);
      for (const section of target.sections) {
        section.fields = section.fields.filter((placed) => placed.key !== fieldKey);
      }
      queue(target, 'removeField', `Remove field ${fieldKey}`);
      return answer(moduleId);
    },
    ...overrides,
  });
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
      createElement(LayoutsPanel, { portalId: PORTAL_ID, moduleId }),
    ),
  );
  return { engine, byModule, push };
}

const layoutRow = (name: string) =>
  within(screen.getByRole('list', { name: /^Layouts of/ })).getByRole('listitem', { name });
const sectionsOf = (name: string) => screen.getByRole('region', { name: `Sections of ${name}` });
const sectionItem = (layoutName: string, name: string) =>
  within(sectionsOf(layoutName)).getByRole('listitem', { name });
const preview = (name: string) => screen.getByRole('complementary', { name: `Preview: ${name}` });
const previewHeadings = (name: string) =>
  within(preview(name))
    .getAllByRole('heading', { level: 5 })
    .map((heading) => heading.textContent);
const describedBy = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

async function opened(options?: Parameters<typeof setup>[0]) {
  const result = setup(options);
  await screen.findByRole('list', { name: /^Layouts of/ });
  return result;
}

describe('the Layouts panel', () => {
  it("lists a module's layouts: type, default, not created yet, queued changes in words", async () => {
    await opened();
    const picker = screen.getByLabelText<HTMLSelectElement>('Module');
    expect([...picker.options].map((option) => option.textContent)).toEqual(['Equipment', 'Tasks']);
    expect(picker.value).toBe('2001');

    const standard = layoutRow('Standard');
    expect(standard.textContent).toContain('Public');
    expect(standard.textContent).toContain('Default');
    expect(standard.textContent).not.toContain('not created yet');
    const crew = layoutRow('Field crew');
    expect(crew.textContent).toContain('Private');
    expect(crew.textContent).not.toContain('Default');
    expect(within(crew).getByRole('button', { name: 'Make public' })).toBeTruthy();

    const draft = layoutRow('Draft');
    expect(draft.textContent).toContain('not created yet');
    const queued = within(draft).getByRole('list', { name: 'Queued changes of Draft' });
    expect(queued.textContent).toBe(
      'Create layout Draft refused by the service: The module allows at most 10 layouts.',
    );

    // The default layout's sections and form are the ones shown first.
    expect(
      within(standard)
        .getByRole('button', { name: /Sections and preview/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(
      within(crew)
        .getByRole('button', { name: /Sections and preview/ })
        .getAttribute('aria-pressed'),
    ).toBe('false');
    expect(previewHeadings('Standard')).toEqual(['General', 'Maintenance']);
    const general = within(preview('Standard')).getByRole('region', {
      name: 'Preview section General',
    });
    // The name is the form's heading, as in the records workspace, not a field of the section.
    expect(within(general).queryByText('Equipment name')).toBeNull();
    expect(general.textContent).toContain('Serial numberA line of text');
    expect(general.textContent).toContain('Purchase dateA date');
  });

  it('creates a layout: a name problem in place and nothing sent, then exactly what was chosen', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(screen.getByRole('button', { name: 'New layout' }));
    const form = screen.getByRole('form', { name: 'New layout of Equipment' });
    const name = within(form).getByLabelText('Layout name');
    expect(document.activeElement).toBe(name);

    await user.type(name, 'standard ');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(name)).toBe(
      'Layout name: "standard" is already the name of another one here.',
    );
    await user.click(within(form).getByRole('button', { name: 'Create layout' }));
    expect(engine.argsOf('configure.createLayout')).toEqual([]);
    expect(document.activeElement).toBe(name);

    await user.clear(name);
    await user.click(within(form).getByRole('button', { name: 'Create layout' }));
    expect(describedBy(name)).toBe('Layout name: required.');
    expect(engine.argsOf('configure.createLayout')).toEqual([]);

    await user.type(name, 'Night shift');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    await user.click(within(form).getByLabelText('Private'));
    await user.selectOptions(
      within(form).getByLabelText('Copy sections and fields from'),
      'Field crew',
    );
    await user.click(within(form).getByRole('button', { name: 'Create layout' }));

    await waitFor(() => expect(engine.argsOf('configure.createLayout')).toHaveLength(1));
    expect(engine.argsOf('configure.createLayout')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      name: 'Night shift',
      type: 'private',
      referenceId: '4002',
    });
    const created = await waitFor(() => layoutRow('Night shift'));
    expect(created.textContent).toContain('not created yet');
    expect(created.textContent).toContain('Create layout Night shift');
    expect(created.textContent).toContain('waiting to be sent');
    // The new layout's copied sections are the ones on screen now.
    expect(previewHeadings('Night shift')).toEqual(['Basics']);
    expect(screen.getByRole('status').textContent).toContain('Night shift is queued');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New layout' }));
  });

  it('renames a layout in place, checked as typed', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(within(layoutRow('Field crew')).getByRole('button', { name: 'Rename' }));
    const form = screen.getByRole('form', { name: 'Rename Field crew' });
    const input = within(form).getByLabelText('New name of Field crew');
    expect(document.activeElement).toBe(input);
    await user.clear(input);
    await user.type(input, 'STANDARD');
    expect(describedBy(input)).toBe(
      'Layout name: "STANDARD" is already the name of another one here.',
    );
    await user.click(within(form).getByRole('button', { name: 'Rename layout' }));
    expect(engine.argsOf('configure.updateLayout')).toEqual([]);

    await user.clear(input);
    await user.type(input, 'Crew{Enter}');
    await waitFor(() => expect(engine.argsOf('configure.updateLayout')).toHaveLength(1));
    expect(engine.argsOf('configure.updateLayout')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      layoutId: '4002',
      changes: { name: 'Crew' },
    });
    await waitFor(() => expect(layoutRow('Crew')).toBeTruthy());
    expect(screen.queryByRole('form', { name: /^Rename/ })).toBeNull();
  });

  it('changes the type, and makes another layout the default', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(within(layoutRow('Field crew')).getByRole('button', { name: 'Make public' }));
    await waitFor(() => expect(engine.argsOf('configure.updateLayout')).toHaveLength(1));
    expect(engine.argsOf('configure.updateLayout')[0]?.changes).toEqual({ type: 'public' });
    await waitFor(() =>
      expect(within(layoutRow('Field crew')).getByRole('button', { name: 'Make private' })),
    );

    expect(
      within(layoutRow('Standard')).queryByRole('button', { name: 'Make default' }),
    ).toBeNull();
    await user.click(within(layoutRow('Field crew')).getByRole('button', { name: 'Make default' }));
    await waitFor(() => expect(engine.argsOf('configure.updateLayout')).toHaveLength(2));
    expect(engine.argsOf('configure.updateLayout')[1]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      layoutId: '4002',
      changes: { makeDefault: true },
    });
    await waitFor(() => expect(layoutRow('Field crew').textContent).toContain('Default'));
    expect(layoutRow('Standard').textContent).not.toContain('Default');
    // The old default may be deleted now; the new one may not.
    expect(within(layoutRow('Standard')).getByRole('button', { name: 'Delete…' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(within(layoutRow('Field crew')).getByRole('button', { name: 'Delete…' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('keeps the default and the last layout, saying why, and deletes another once asked', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const standardDelete = within(layoutRow('Standard')).getByRole('button', { name: 'Delete…' });
    expect(standardDelete).toHaveProperty('disabled', true);
    expect(describedBy(standardDelete)).toBe(
      'The default layout cannot be deleted: make another layout the default first.',
    );

    await user.click(within(layoutRow('Field crew')).getByRole('button', { name: 'Delete…' }));
    const asked = screen.getByRole('group', { name: 'Delete layout Field crew' });
    expect(engine.argsOf('configure.deleteLayout')).toEqual([]);
    await user.click(within(asked).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('group', { name: 'Delete layout Field crew' })).toBeNull();
    await user.click(within(layoutRow('Field crew')).getByRole('button', { name: 'Delete…' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Delete layout Field crew' })).getByRole('button', {
        name: 'Delete layout',
      }),
    );
    await waitFor(() => expect(engine.argsOf('configure.deleteLayout')).toHaveLength(1));
    expect(engine.argsOf('configure.deleteLayout')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      layoutId: '4002',
    });
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Field crew' })).toBeNull());

    // Another module's only layout: kept because it is the last.
    await user.selectOptions(screen.getByLabelText('Module'), 'Tasks');
    const only = await waitFor(() => layoutRow('Task form'));
    const onlyDelete = within(only).getByRole('button', { name: 'Delete…' });
    expect(onlyDelete).toHaveProperty('disabled', true);
    expect(describedBy(onlyDelete)).toBe(
      'A module keeps at least one layout: this is its last one.',
    );
    expect(engine.argsOf('configure.layouts').at(-1)).toEqual({
      portalId: PORTAL_ID,
      moduleId: '1001',
    });
  });

  it('adds a section (checked as typed), moves one up, and the preview follows at once', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const sections = sectionsOf('Standard');
    const name = within(sections).getByLabelText('New section name');
    await user.type(name, 'GENERAL');
    expect(describedBy(name)).toBe(
      'Section name: "GENERAL" is already the name of another one here.',
    );
    await user.click(within(sections).getByRole('button', { name: 'Add section' }));
    expect(engine.argsOf('configure.putSection')).toEqual([]);

    await user.clear(name);
    await user.type(name, 'Warranty');
    await user.click(within(sections).getByRole('button', { name: 'Add section' }));
    await waitFor(() => expect(engine.argsOf('configure.putSection')).toHaveLength(1));
    expect(engine.argsOf('configure.putSection')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      layoutId: '4001',
      name: 'Warranty',
    });
    await waitFor(() =>
      expect(previewHeadings('Standard')).toEqual(['General', 'Maintenance', 'Warranty']),
    );
    expect(sectionItem('Standard', 'Warranty').textContent).toContain('not created yet');
    expect((name as HTMLInputElement).value).toBe('');

    const maintenanceUp = within(sectionItem('Standard', 'Maintenance')).getByRole('button', {
      name: 'Move up: Maintenance',
    });
    expect(
      within(sectionItem('Standard', 'General')).getByRole('button', { name: 'Move up: General' }),
    ).toHaveProperty('disabled', true);
    await user.click(maintenanceUp);
    await waitFor(() => expect(engine.argsOf('configure.putSection')).toHaveLength(2));
    expect(engine.argsOf('configure.putSection')[1]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      layoutId: '4001',
      sectionId: '5002',
      name: 'Maintenance',
      position: 1,
    });
    await waitFor(() =>
      expect(previewHeadings('Standard')).toEqual(['Maintenance', 'General', 'Warranty']),
    );
    // Now first: its Move up is disabled, so the focus went to its Move down.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move down: Maintenance');
    await user.click(
      within(sectionItem('Standard', 'Maintenance')).getByRole('button', {
        name: 'Move down: Maintenance',
      }),
    );
    await waitFor(() => expect(engine.argsOf('configure.putSection')).toHaveLength(3));
    expect(engine.argsOf('configure.putSection')[2]?.position).toBe(2);
  });

  it('renames a section, and the preview heading follows', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(
      within(sectionItem('Standard', 'Maintenance')).getByRole('button', { name: 'Rename' }),
    );
    const input = screen.getByLabelText('New name of Maintenance');
    await user.clear(input);
    await user.type(input, 'Servicing{Enter}');
    await waitFor(() => expect(engine.argsOf('configure.putSection')).toHaveLength(1));
    expect(engine.argsOf('configure.putSection')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      layoutId: '4001',
      sectionId: '5002',
      name: 'Servicing',
    });
    await waitFor(() => expect(previewHeadings('Standard')).toEqual(['General', 'Servicing']));
  });

  it('deletes a section once asked, saying where its fields go; the last one is kept with the reason', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    await user.click(
      within(sectionItem('Standard', 'Maintenance')).getByRole('button', { name: 'Delete…' }),
    );
    const asked = screen.getByRole('group', { name: 'Delete section Maintenance' });
    expect(asked.textContent).toContain(
      'Its 2 fields move to the end of the section before it, General.',
    );
    expect(engine.argsOf('configure.deleteSection')).toEqual([]);
    await user.click(within(asked).getByRole('button', { name: 'Delete section' }));
    await waitFor(() => expect(engine.argsOf('configure.deleteSection')).toHaveLength(1));
    expect(engine.argsOf('configure.deleteSection')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      layoutId: '4001',
      sectionId: '5002',
    });
    await waitFor(() => expect(previewHeadings('Standard')).toEqual(['General']));
    expect(preview('Standard').textContent).toContain('Last service');

    // General is the last section now: kept, and the reason says where fields would have gone.
    const lastDelete = within(sectionItem('Standard', 'General')).getByRole('button', {
      name: 'Delete…',
    });
    expect(lastDelete).toHaveProperty('disabled', true);
    expect(describedBy(lastDelete)).toContain('A layout keeps at least one section');
    expect(describedBy(lastDelete)).toContain('moves its fields to the section before it');
  });

  it('takes a field off the layout only after confirming; system fields stay', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const general = sectionItem('Standard', 'General');
    expect(
      // A system field moves (FieldPlacement.dom.test.ts) but is never taken off.
      within(within(general).getByRole('listitem', { name: 'Status' })).queryByRole('button', {
        name: 'Remove from layout…',
      }),
    ).toBeNull();
    const serial = within(general).getByRole('listitem', { name: 'Serial number' });
    await user.click(within(serial).getByRole('button', { name: 'Remove from layout…' }));
    const asked = screen.getByRole('group', { name: 'Remove Serial number from Standard' });
    expect(asked.textContent).toContain('Records keep their values');
    await user.click(within(asked).getByRole('button', { name: 'Keep it' }));
    expect(engine.argsOf('configure.removeLayoutField')).toEqual([]);
    expect(preview('Standard').textContent).toContain('Serial number');

    await user.click(within(serial).getByRole('button', { name: 'Remove from layout…' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Remove Serial number from Standard' })).getByRole(
        'button',
        { name: 'Remove from layout' },
      ),
    );
    await waitFor(() => expect(engine.argsOf('configure.removeLayoutField')).toHaveLength(1));
    expect(engine.argsOf('configure.removeLayoutField')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: '2001',
      layoutId: '4001',
      fieldKey: 'serial',
    });
    await waitFor(() => expect(preview('Standard').textContent).not.toContain('Serial number'));
    expect(sectionItem('Standard', 'General').textContent).not.toContain('Serial number');
    expect(layoutRow('Standard').textContent).toContain('Remove field serial');
  });

  it('shows the layout picked, and reads again when the outbox or configuration changes', async () => {
    const user = userEvent.setup();
    const { byModule, push, engine } = await opened();
    await user.click(
      within(layoutRow('Field crew')).getByRole('button', { name: /Sections and preview/ }),
    );
    expect(previewHeadings('Field crew')).toEqual(['Basics']);
    expect(screen.queryByRole('complementary', { name: 'Preview: Standard' })).toBeNull();

    // A replay gave the section a new name on the service side; the outbox says something changed.
    byModule.get('2001')![1]!.sections[0]!.name = 'Essentials';
    await push('outbox.changed', {});
    await waitFor(() => expect(previewHeadings('Field crew')).toEqual(['Essentials']));

    byModule.get('2001')![1]!.sections[0]!.fields.push(field('cost', 'Service cost', 'currency'));
    const reads = engine.argsOf('configure.modules').length;
    await push('configure.changed', { portalId: PORTAL_ID });
    await waitFor(() =>
      expect(preview('Field crew').textContent).toContain('Service costAn amount'),
    );
    expect(engine.argsOf('configure.modules').length).toBe(reads + 1);
  });

  it("shows the engine's refusal beside the control that caused it", async () => {
    const user = userEvent.setup();
    const { engine } = await opened({
      overrides: {
        'configure.deleteLayout': () => {
          throw new Error('Field crew is used by 12 records: move them to another layout first.');
        },
        'configure.putSection': () => {
          throw new Error('The service allows at most 30 sections in a layout.');
        },
      },
    });
    await user.click(within(layoutRow('Field crew')).getByRole('button', { name: 'Delete…' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Delete layout Field crew' })).getByRole('button', {
        name: 'Delete layout',
      }),
    );
    await waitFor(() => expect(engine.argsOf('configure.deleteLayout')).toHaveLength(1));
    const crew = layoutRow('Field crew');
    const alert = await within(crew).findByRole('alert');
    expect(alert.textContent).toBe(
      'Field crew is used by 12 records: move them to another layout first.',
    );
    expect(describedBy(within(crew).getByRole('button', { name: 'Delete…' }))).toContain(
      'used by 12 records',
    );
    // Said in that row only: no other layout shows it.
    expect(within(layoutRow('Standard')).queryByRole('alert')).toBeNull();

    const sections = sectionsOf('Standard');
    await user.type(within(sections).getByLabelText('New section name'), 'Warranty');
    await user.click(within(sections).getByRole('button', { name: 'Add section' }));
    const addButton = within(sections).getByRole('button', { name: 'Add section' });
    await waitFor(() =>
      expect(describedBy(addButton)).toBe('The service allows at most 30 sections in a layout.'),
    );
    // The typed name is kept for another try; the preview shows nothing that was not queued.
    expect(within(sections).getByLabelText<HTMLInputElement>('New section name').value).toBe(
      'Warranty',
    );
    expect(previewHeadings('Standard')).toEqual(['General', 'Maintenance']);
  });
});
