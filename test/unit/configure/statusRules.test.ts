/**
 * The pure rules of statuses and of a user field's people (src/shared/configRules/statusRules.ts,
 * peopleRules.ts), and the statuses overlay (src/main/configure/statusOps.ts): each refusal in
 * words, and queued changes laid over the mirror's statuses in order.
 */
import { describe, expect, it } from 'vitest';
import {
  statusColorProblem,
  statusNameProblem,
  statusRemovalProblem,
  statusTransitionsProblem,
} from '../../../src/shared/configRules/statusRules';
import { peopleAddProblem, peopleRemoveProblem } from '../../../src/shared/configRules/peopleRules';
import { overlayStatuses, statusBody } from '../../../src/main/configure/statusOps';
import type { OutboxOp } from '../../../src/main/outbox/outboxTypes';
import type { ConfigStatus } from '../../../src/shared/ipc/areas/configureChoices';

const open = { id: '1', name: 'Open' };
const done = { id: '2', name: 'Done' };

describe('status rules', () => {
  it('names: required, at most 100 characters, unique in the module case-insensitively', () => {
    expect(statusNameProblem('  ', [open])).toBe('Status: a name is required.');
    expect(statusNameProblem('é'.repeat(100), [open])).toBeNull();
    expect(statusNameProblem('é'.repeat(101), [open])).toBe(
      'Status: at most 100 characters (101 given).',
    );
    expect(statusNameProblem(' OPEN ', [open, done])).toBe(
      'Status: “OPEN” is already a status of this module.',
    );
    expect(statusNameProblem('Open', [open, done], '1')).toBeNull();
  });

  it('colours are #rrggbb', () => {
    expect(statusColorProblem('#2a64D6')).toBeNull();
    for (const bad of ['2a64d6', '#2a64d', '#2a64d6f', 'red', '#gggggg', '']) {
      expect(statusColorProblem(bad), bad).toMatch(/^Colour: /);
    }
  });

  it('transitions: statuses of the module, not itself, each once', () => {
    expect(statusTransitionsProblem(['2'], [open, done], '1')).toBeNull();
    expect(statusTransitionsProblem(['1'], [open, done], '1')).toBe(
      'Transitions: a status cannot lead to itself.',
    );
    expect(statusTransitionsProblem(['9'], [open, done], '1')).toBe(
      'Transitions: status 9 is not a status of this module (yet).',
    );
    expect(statusTransitionsProblem(['2', '2'], [open, done], '1')).toBe(
      'Transitions: “Done” is listed twice.',
    );
  });

  it('removal: not the default, not in use, not the last', () => {
    const unused = { name: 'Done', isDefault: false, records: 0, timelineUses: 0 };
    expect(statusRemovalProblem(unused, 1)).toBeNull();
    expect(statusRemovalProblem({ ...unused, isDefault: true }, 1)).toMatch(/default status/);
    expect(statusRemovalProblem({ ...unused, records: 1 }, 1)).toBe(
      '“Done” is the status of 1 mirrored record; move them to another status first.',
    );
    expect(statusRemovalProblem({ ...unused, timelineUses: 3 }, 1)).toMatch(/status history/);
    expect(statusRemovalProblem(unused, 0)).toBe('A module keeps at least one status.');
  });
});

describe('people rules', () => {
  const context = {
    members: [
      { id: '11', name: 'Ann' },
      { id: '12', name: null },
    ],
    offeredRoles: [{ id: '2', name: 'Manager' }],
    users: [{ id: '11' }],
    roles: [],
  };
  it('adds members and offered roles, each once', () => {
    expect(peopleAddProblem({ users: ['12'], roles: ['2'] }, context)).toBeNull();
    expect(peopleAddProblem({ users: ['13'], roles: [] }, context)).toMatch(
      /User 13 is not a member of this portal/,
    );
    expect(peopleAddProblem({ users: ['11'], roles: [] }, context)).toBe(
      "User: Ann (11) is already one of this field's users.",
    );
    expect(peopleAddProblem({ users: ['12', '12'], roles: [] }, context)).toMatch(/already/);
    expect(peopleAddProblem({ users: [], roles: ['5'] }, context)).toBe(
      "Role 5 is not one of the portal's roles (Manager (2)).",
    );
    expect(peopleAddProblem({ users: [], roles: ['2'] }, { ...context, offeredRoles: [] })).toMatch(
      /not known here yet/,
    );
  });
  it('removes only what the field holds', () => {
    expect(peopleRemoveProblem({ users: ['11'], roles: [] }, context)).toBeNull();
    expect(peopleRemoveProblem({ users: ['12'], roles: [] }, context)).toBe(
      "User 12 is not one of this field's users.",
    );
    expect(peopleRemoveProblem({ users: [], roles: ['2'] }, context)).toBe(
      "Role 2 is not one of this field's roles.",
    );
  });
});

describe('the statuses overlay', () => {
  const status = (id: string, name: string, transitions: string[] = []): ConfigStatus => ({
    id,
    name,
    color: '#111111',
    closed: false,
    isDefault: id === '1',
    transitions,
    records: 0,
    timelineUses: 0,
    localOnly: false,
    pending: [],
  });
  let seq = 0;
  const op = (action: string, fields: Record<string, unknown>, state = 'pending'): OutboxOp =>
    ({
      seq: ++seq,
      kind: 'config',
      action: `status.${action}`,
      state,
      error: null,
      fields: Object.fromEntries(
        Object.entries({ field_id: '77', ...fields }).map(([k, v]) => [
          k,
          { value: v, base: null },
        ]),
      ),
    }) as unknown as OutboxOp;

  it('lays adds, changes, moves and removals over the mirror in order', () => {
    const tmp = 'tmp-st-00000000000000aa';
    const shown = overlayStatuses(
      [status('1', 'Open', ['2']), status('2', 'Done', ['1'])],
      [
        op('addStatuses', {
          statuses: [
            { id: tmp, name: 'Review', color: '#2a64d6', closed: false, transitions: ['1'] },
          ],
        }),
        op('updateStatuses', {
          statuses: [{ id: '1', name: 'Open', transitions: ['2', tmp] }],
        }),
        op('moveStatus', { statuses: [{ id: tmp, name: 'Review' }], position: 1 }),
        op('removeStatuses', { statuses: [{ id: '2', name: 'Done' }] }),
      ],
    );
    expect(shown.map((s) => [s.name, s.transitions, s.localOnly])).toEqual([
      ['Review', ['1'], true],
      ['Open', [tmp], false],
    ]);
    expect(shown[1]!.pending.map((p) => p.action)).toEqual(['updateStatuses']);
  });

  it('keeps a status whose removal the service refused, with the refusal', () => {
    const shown = overlayStatuses(
      [status('1', 'Open'), status('2', 'Done')],
      [op('removeStatuses', { statuses: [{ id: '2', name: 'Done' }] }, 'failed')],
    );
    expect(shown.map((s) => s.name)).toEqual(['Open', 'Done']);
    expect(shown[1]!.pending[0]!.state).toBe('failed');
  });

  it('a change sends a name only when it renames', () => {
    const change = op('updateStatuses', {
      statuses: [{ id: '2', name: 'Done', color: '#222222' }],
      was: { '2': { id: '2', name: 'Done' } },
    });
    expect(statusBody(change, 'assets')).toEqual({
      module: 'assets',
      field: '77',
      statuses: [{ id: '2', color: '#222222' }],
    });
  });
});
