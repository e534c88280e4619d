import { describe, expect, it } from 'vitest';
import { planEdit, type PlanContext } from '../../../src/main/outbox/planEdit';
import { outboxOp as op } from './outboxOp';

const server: Record<string, unknown> = {
  name: 'Server name',
  cf_tags: ['A', 'B'],
  status: { id: 'open', name: 'Open' },
};
/** open → doing → done; open → done is not allowed in one step. */
const moves = new Set(['open>doing', 'doing>done', 'done>open']);
const context: PlanContext = {
  serverValue: (field) => server[field] ?? null,
  mayMoveStatus: (from, to) => from === to || moves.has(`${from}>${to}`),
};

const change = (field: string, value: unknown, type = 'single_line') => ({ field, type, value });

describe('planEdit: coalescing and revert', () => {
  it('starts an update with the server values as bases', () => {
    expect(planEdit([], [change('name', 'New')], context)).toEqual({
      action: 'append',
      fields: { name: { value: 'New', base: 'Server name' } },
      reverted: [],
    });
  });

  it('folds a consecutive edit into the pending update, keeping the first base', () => {
    const pending = op({ fields: { name: { value: 'First', base: 'Server name' } } });
    expect(
      planEdit([pending], [change('name', 'Second'), change('cf_x', 5, 'number')], context),
    ).toEqual({
      action: 'merge',
      seq: pending.seq,
      kind: 'update',
      fields: {
        name: { value: 'Second', base: 'Server name' },
        cf_x: { value: 5, base: null },
      },
      reverted: [],
    });
  });

  it('drops a field reverted to its base, and the whole operation when nothing is left', () => {
    const pending = op({ fields: { name: { value: 'First', base: 'Server name' } } });
    const plan = planEdit([pending], [change('name', 'Server name')], context);
    expect(plan).toEqual({
      action: 'merge',
      seq: pending.seq,
      kind: 'update',
      fields: {},
      reverted: ['name'],
    });
  });

  it('treats a multi-select in another order as the same value', () => {
    const pending = op({ fields: { cf_tags: { value: ['A'], base: ['A', 'B'] } } });
    const plan = planEdit([pending], [change('cf_tags', ['B', 'A'], 'multi_select')], context);
    expect(plan).toMatchObject({ action: 'merge', fields: {}, reverted: ['cf_tags'] });
  });

  it('does not fold into an update that was sent: the new one is based on what that one writes', () => {
    const sent = op({
      state: 'sending',
      sentBody: '{}',
      fields: { name: { value: 'Sent', base: 'Server name' } },
    });
    expect(planEdit([sent], [change('name', 'After')], context)).toEqual({
      action: 'append',
      fields: { name: { value: 'After', base: 'Sent' } },
      reverted: [],
    });
    // Setting it back to what the service had is a real change after the sent one.
    expect(planEdit([sent], [change('name', 'Server name')], context)).toMatchObject({
      action: 'append',
      fields: { name: { value: 'Server name', base: 'Sent' } },
    });
  });

  it('skips comments when looking for the update to fold into, but not trash', () => {
    const update = op({ fields: { name: { value: 'X', base: 'Server name' } } });
    const comment = op({ kind: 'comment_add', content: 'hi' });
    expect(planEdit([update, comment], [change('name', 'Y')], context)).toMatchObject({
      action: 'merge',
      seq: update.seq,
    });
    const trash = op({ kind: 'trash' });
    expect(planEdit([update, trash], [change('name', 'Y')], context)).toMatchObject({
      action: 'append',
      fields: { name: { value: 'Y', base: 'X' } },
    });
  });

  it('folds into a refused update (editing it is how the user fixes it)', () => {
    const failed = op({ state: 'failed', fields: { name: { value: 'Bad', base: 'Server name' } } });
    expect(planEdit([failed], [change('name', 'Good')], context)).toMatchObject({
      action: 'merge',
      seq: failed.seq,
    });
  });

  it("queues someone else's change behind a refused update or create, leaving it as it is", () => {
    const failed = op({ state: 'failed', fields: { name: { value: 'Bad', base: 'Server name' } } });
    const bulk = { ...context, keepRefused: true };
    expect(planEdit([failed], [change('name', 'Good')], bulk)).toEqual({
      action: 'append',
      fields: { name: { value: 'Good', base: 'Bad' } },
      reverted: [],
    });
    const create = op({
      kind: 'create',
      state: 'failed',
      fields: { name: { value: 'New', base: null } },
    });
    expect(planEdit([create], [change('name', 'Newer')], bulk)).toEqual({
      action: 'append',
      fields: { name: { value: 'Newer', base: 'New' } },
      reverted: [],
    });
    // A pending one still takes it.
    const pending = op({ fields: { name: { value: 'Mine', base: 'Server name' } } });
    expect(planEdit([pending], [change('name', 'Good')], bulk)).toMatchObject({
      action: 'merge',
      seq: pending.seq,
    });
  });

  it('puts edits of a record created offline into its create while it was not sent', () => {
    const create = op({ kind: 'create', fields: { name: { value: 'New', base: null } } });
    expect(planEdit([create], [change('name', 'Newer')], context)).toEqual({
      action: 'merge',
      seq: create.seq,
      kind: 'create',
      fields: { name: { value: 'Newer', base: null } },
      reverted: [],
    });
  });

  it('keeps a status change the service refuses as one step as its own PATCH', () => {
    const toDoing = op({ fields: { status: { value: { id: 'doing' }, base: { id: 'open' } } } });
    const plan = planEdit([toDoing], [change('status', { id: 'done' }, 'status')], context);
    expect(plan).toEqual({
      action: 'append',
      fields: { status: { value: { id: 'done' }, base: { id: 'doing' } } },
      reverted: [],
    });
    // Back to where it started folds (and drops) as usual.
    expect(
      planEdit([toDoing], [change('status', { id: 'open' }, 'status')], context),
    ).toMatchObject({
      action: 'merge',
      fields: {},
      reverted: ['status'],
    });
  });

  it('ignores a change equal to what the queue already writes', () => {
    expect(planEdit([], [change('name', 'Server name')], context)).toEqual({
      action: 'append',
      fields: {},
      reverted: ['name'],
    });
  });
});
