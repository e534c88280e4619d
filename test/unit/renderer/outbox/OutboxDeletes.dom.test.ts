// @vitest-environment happy-dom
/**
 * Deletes in the Outbox say what they delete: a record deleted for good by its name, a comment by
 * its start and the record it is on, whether still queued or refused by the service; the whole
 * comment is shown once, under the headline, only when the start left some of it out.
 */
import { createElement } from 'react';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OutboxContext } from '../../../../src/renderer/src/features/outbox/OutboxContext';
import { OutboxView } from '../../../../src/renderer/src/features/outbox/OutboxView';
import { createOutboxStore } from '../../../../src/renderer/src/features/outbox/outboxStore';
import type { OutboxEntry } from '../../../../src/shared/ipc/areas/outbox';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';

useDomTestEnvironment();

const LONG =
  'Battery swollen; sent for repair on Monday, back by the end of the month at the latest.';

function entry(id: number, patch: Partial<OutboxEntry>): OutboxEntry {
  return {
    id,
    kind: 'delete',
    portalId: '1000000000001',
    moduleId: '2001',
    module: 'Assets',
    recordId: '1000000000386',
    recordName: 'Ubiquiti router #1',
    state: 'pending',
    queuedAt: '2026-11-26T08:00:00.000Z',
    updatedAt: '2026-11-26T08:00:00.000Z',
    edits: 1,
    attempts: 0,
    nextAttemptAt: null,
    error: null,
    fields: [],
    comment: null,
    conflict: null,
    uncertain: false,
    config: null,
    ...patch,
  };
}

const comment = (content: string | null) => ({
  kind: 'comment_delete' as const,
  recordId: '1000000000390',
  recordName: 'Cisco docking station #2',
  comment: { commentId: '1000000000395', content },
});

const QUEUE = [
  entry(1, {}),
  entry(2, comment('Flagging this for the audit.')),
  entry(3, {
    ...comment(LONG),
    state: 'failed',
    error: 'The service refused it: you may delete only your own comments.',
  }),
  entry(4, { recordName: null, state: 'failed', error: 'The service refused it.' }),
];

async function setup() {
  const engine = fakeEngine({
    'outbox.status': () => ({
      counts: { pending: 2, sending: 0, failed: 2, conflict: 0 },
      total: 4,
      workOffline: true,
      online: null,
      nextAttemptAt: null,
      replayed: 0,
      at: 0,
    }),
    'outbox.list': () => QUEUE,
  });
  const outbox = createOutboxStore(engine.api);
  await outbox.getState().load();
  render(createElement(OutboxContext.Provider, { value: outbox }, createElement(OutboxView)));
}

const headline = (el: HTMLElement) => el.querySelector('.outbox-entry__head')!.textContent;

describe('deletes in the Outbox', () => {
  it('name what they delete, queued or refused', async () => {
    await setup();
    const waiting = within(screen.getByRole('region', { name: /Waiting to be sent/ }));
    const [record, short] = waiting.getAllByTestId('outbox-entry');
    expect(headline(record!)).toMatch(/^Delete for goodUbiquiti router #1 · Assets/);
    expect(headline(short!)).toMatch(
      /^Delete comment“Flagging this for the audit\.” on Cisco docking station #2 · Assets/,
    );
    // Short enough for the headline: not said twice.
    expect(short!.querySelector('.outbox-entry__comment')).toBeNull();

    const refused = within(screen.getByRole('region', { name: /Refused by the service/ }));
    const [long, unnamed] = refused.getAllByTestId('outbox-entry');
    expect(headline(long!)).toMatch(
      /^Delete comment“Battery swollen; sent for repair on Monday, back by the end…” on Cisco docking station #2/,
    );
    expect(long!.querySelector('.outbox-entry__comment')?.textContent).toBe(`“${LONG}”`);
    expect(within(long!).getByRole('alert').textContent).toContain('your own comments');
    expect(headline(unnamed!)).toMatch(/^Delete for goodrecord 1000000000386 · Assets/);
  });
});
