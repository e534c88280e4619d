// @vitest-environment happy-dom
/**
 * A long queue (a bulk edit's thousands of updates) is listed by its oldest entries of each state:
 * the list is asked with `perState`, the heading counts every entry (from the status), a line says
 * how many are listed, and "Show more" asks for the next ones.
 */
import { createElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OutboxContext } from '../../../../src/renderer/src/features/outbox/OutboxContext';
import { OutboxView } from '../../../../src/renderer/src/features/outbox/OutboxView';
import {
  createOutboxStore,
  OUTBOX_SHOWN_PER_STATE,
} from '../../../../src/renderer/src/features/outbox/outboxStore';
import type { OpState, OutboxEntry } from '../../../../src/shared/ipc/areas/outbox';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';

useDomTestEnvironment();

function entry(id: number, state: OpState): OutboxEntry {
  return {
    id,
    kind: 'update',
    portalId: '1000000000001',
    moduleId: '2001',
    module: 'Equipment',
    recordId: String(5000 + id),
    recordName: `Crane ${id}`,
    state,
    queuedAt: '2026-11-26T08:00:00.000Z',
    updatedAt: '2026-11-26T08:00:00.000Z',
    edits: 1,
    attempts: 0,
    nextAttemptAt: null,
    error: state === 'failed' ? 'The service refused it.' : null,
    fields: [{ field: 'name', label: 'Name', type: 'name', base: 'Crane', mine: `Crane ${id}` }],
    comment: null,
    conflict: null,
    uncertain: false,
    config: null,
  };
}

/** 1,000 pending updates and 3 refused ones, oldest first, as the engine keeps them. */
const QUEUE = [
  ...Array.from({ length: 1_000 }, (_, i) => entry(i + 1, 'pending')),
  ...[1, 2, 3].map((i) => entry(2_000 + i, 'failed')),
];

async function setup() {
  const asked: (number | undefined)[] = [];
  const engine = fakeEngine({
    'outbox.status': () => ({
      counts: { pending: 1_000, sending: 0, failed: 3, conflict: 0 },
      total: 1_003,
      workOffline: true,
      online: null,
      nextAttemptAt: null,
      replayed: 0,
      at: 0,
    }),
    'outbox.list': (args) => {
      const perState = args?.perState;
      asked.push(perState);
      const taken = new Map<string, number>();
      return QUEUE.filter((e) => {
        const n = taken.get(e.state) ?? 0;
        taken.set(e.state, n + 1);
        return perState === undefined || n < perState;
      });
    },
  });
  const outbox = createOutboxStore(engine.api);
  await outbox.getState().load();
  render(createElement(OutboxContext.Provider, { value: outbox }, createElement(OutboxView)));
  return { asked };
}

describe('a long queue in the Outbox', () => {
  it('lists the oldest of each state, counts them all, and shows more on request', async () => {
    const user = userEvent.setup();
    const { asked } = await setup();
    expect(asked.every((n) => n === OUTBOX_SHOWN_PER_STATE)).toBe(true);

    const waiting = screen.getByRole('region', { name: /Waiting to be sent/ });
    expect(within(waiting).getByRole('heading').textContent).toContain('(1,000)');
    expect(within(waiting).getAllByTestId('outbox-entry')).toHaveLength(OUTBOX_SHOWN_PER_STATE);
    const more = within(waiting).getByTestId('outbox-more-pending');
    expect(more.textContent).toContain('The oldest 200 of 1,000 are listed');

    // Refused ones are few: all listed, no line.
    const refused = screen.getByRole('region', { name: /Refused by the service/ });
    expect(within(refused).getAllByTestId('outbox-entry')).toHaveLength(3);
    expect(within(refused).queryByTestId('outbox-more-failed')).toBeNull();

    await user.click(within(more).getByRole('button', { name: 'Show 200 more' }));
    await waitFor(() =>
      expect(within(waiting).getAllByTestId('outbox-entry')).toHaveLength(
        2 * OUTBOX_SHOWN_PER_STATE,
      ),
    );
    expect(asked.at(-1)).toBe(2 * OUTBOX_SHOWN_PER_STATE);
    expect(within(waiting).getByTestId('outbox-more-pending').textContent).toContain(
      'The oldest 400 of 1,000',
    );
  });
});
