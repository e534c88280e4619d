// @vitest-environment happy-dom
/**
 * The users-and-roles editor of one user field over a contract-checked fake engine: the field's
 * users and roles with their queued changes; people and roles added from pickers of the portal's
 * own (those already listed not offered; nothing sent without a choice); one removed at a time,
 * records keeping their values; the engine's refusal beside the control that caused it.
 */
import { createElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { PeopleEditor } from '../../../../src/renderer/src/features/configure/PeopleEditor';
import type { Api } from '../../../../src/shared/ipc/contract';
import type { ConfigPerson } from '../../../../src/shared/ipc/areas/configureChoices';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const REF = { portalId: '1000000000001', moduleId: '2001', fieldId: '5020' };
const person = (id: string, name: string, extra: Partial<ConfigPerson> = {}): ConfigPerson => ({
  id,
  name,
  localOnly: false,
  pending: [],
  ...extra,
});
const MEMBERS = [
  { id: '11', name: 'Ann Admin' },
  { id: '12', name: 'Bo Builder' },
  { id: '13', name: 'Cy Client' },
];
const ROLES = [
  { id: '1', name: 'Administrator' },
  { id: '2', name: 'Manager' },
];

function setup(overrides: FakeHandlers = {}) {
  const users: ConfigPerson[] = [
    person('11', 'Ann Admin', {
      pending: [
        {
          opId: 4,
          action: 'removePeople',
          summary: 'Remove user “Ann Admin”',
          state: 'failed',
          error: 'User 11 among the options of cf_custodian not found.',
        },
      ],
    }),
  ];
  const roles: ConfigPerson[] = [];
  const answer = () => ({
    ...REF,
    field: 'Custodian',
    type: 'user_pick_list',
    userListType: 'selected_users',
    users: structuredClone(users),
    roles: structuredClone(roles),
    members: MEMBERS,
    offeredRoles: ROLES,
  });
  const engine = fakeEngine({
    'configure.fieldPeople': answer,
    'configure.changePeople': ({ addUsers, addRoles, removeUsers }) => {
      for (const id of addUsers ?? [])
        users.push(person(id, MEMBERS.find((m) => m.id === id)!.name, { localOnly: true }));
      for (const id of addRoles ?? [])
        roles.push(person(id, ROLES.find((r) => r.id === id)!.name, { localOnly: true }));
      for (const id of removeUsers ?? [])
        users.splice(
          users.findIndex((u) => u.id === id),
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
      createElement(PeopleEditor, { ...REF, onClose }),
    ),
  );
  return { engine, onClose };
}

async function opened(overrides: FakeHandlers = {}) {
  const result = setup(overrides);
  await screen.findByRole('heading', { name: 'Users and roles of Custodian' });
  return result;
}

const usersList = () => screen.getByRole('list', { name: 'Users' });
const picker = (name: string) => screen.getByLabelText(name) as HTMLSelectElement;

describe('the users and roles editor', () => {
  it("lists the field's users and roles with their queued changes and what the field offers", async () => {
    await opened();
    expect(within(usersList()).getByText('Ann Admin')).toBeTruthy();
    expect(
      within(usersList()).getByRole('list', { name: 'Queued changes of Ann Admin' }).textContent,
    ).toContain('User 11 among the options of cf_custodian not found.');
    expect(screen.getByText('No role listed.')).toBeTruthy();
    expect(document.body.textContent).toContain('This field offers the users listed here.');
    // Those already listed are not offered again.
    expect([...picker('Portal people not listed').options].map((o) => o.textContent)).toEqual([
      'Bo Builder',
      'Cy Client',
    ]);
  });

  it('adds several people at once and a role; nothing is sent without a choice', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    const addUsers = screen.getByRole('button', { name: 'Add users' });
    await user.click(addUsers);
    expect(engine.argsOf('configure.changePeople')).toEqual([]);
    const people = picker('Portal people not listed');
    expect(document.activeElement).toBe(people);
    expect(people.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(people.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Choose at least one user.',
    );
    await user.selectOptions(people, ['12', '13']);
    await user.click(addUsers);
    await waitFor(() => expect(engine.argsOf('configure.changePeople')).toHaveLength(1));
    expect(engine.argsOf('configure.changePeople')[0]).toEqual({ ...REF, addUsers: ['12', '13'] });
    await waitFor(() => expect(within(usersList()).getAllByText('Not sent yet')).toHaveLength(2));

    await user.selectOptions(picker('Portal roles not listed'), ['2']);
    await user.click(screen.getByRole('button', { name: 'Add roles' }));
    await waitFor(() => expect(engine.argsOf('configure.changePeople')).toHaveLength(2));
    expect(engine.argsOf('configure.changePeople')[1]).toEqual({ ...REF, addRoles: ['2'] });
    await screen.findByRole('list', { name: 'Roles' });
  });

  it('removes a user, the keyboard going to the list, records keeping their values', async () => {
    const user = userEvent.setup();
    const { engine } = await opened();
    expect(document.body.textContent).toContain(
      'Removing a user or a role leaves the records’ values as they are.',
    );
    await user.click(screen.getByRole('button', { name: 'Remove Ann Admin' }));
    await waitFor(() => expect(engine.argsOf('configure.changePeople')).toHaveLength(1));
    expect(engine.argsOf('configure.changePeople')[0]).toEqual({ ...REF, removeUsers: ['11'] });
    await screen.findByText('No user listed.');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Users' }));
  });

  it("shows the engine's refusal beside the control that caused it", async () => {
    const user = userEvent.setup();
    await opened({
      'configure.changePeople': () => {
        throw new Error(
          'User 12 is not a member of this portal (not among the people known here).',
        );
      },
    });
    await user.selectOptions(picker('Portal people not listed'), ['12']);
    const addUsers = screen.getByRole('button', { name: 'Add users' });
    await user.click(addUsers);
    await waitFor(() =>
      expect(
        document.getElementById(addUsers.getAttribute('aria-describedby') ?? '')?.textContent,
      ).toBe('User 12 is not a member of this portal (not among the people known here).'),
    );
    expect(
      screen.getByRole('button', { name: 'Add roles' }).getAttribute('aria-describedby'),
    ).toBeNull();
  });
});
