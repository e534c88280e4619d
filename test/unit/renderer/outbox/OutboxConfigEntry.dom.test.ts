// @vitest-environment happy-dom
/**
 * The Outbox lists a configuration change with its summary and module, and "What will be sent"
 * opens to the request's method, path and body as formatted JSON; a record's change beside it
 * shows as before.
 */
import { createElement } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OutboxContext } from '../../../../src/renderer/src/features/outbox/OutboxContext';
import { OutboxView } from '../../../../src/renderer/src/features/outbox/OutboxView';
import { createOutboxStore } from '../../../../src/renderer/src/features/outbox/outboxStore';
import type { OutboxEntry } from '../../../../src/shared/ipc/areas/outbox';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000001';

function entry(overrides: Partial<OutboxEntry> & Pick<OutboxEntry, 'id' | 'kind'>): OutboxEntry {
  return {
    portalId: PORTAL_ID,
    moduleId: '2001',
    module: 'Equipment',
    recordId: '5001',
    recordName: 'Crane 7',
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
    ...overrides,
  };
}

const BODY = {
  singular_name: 'Asset',
  plural_name: 'Assets',
  projects: [{ project: { id: '3002' }, is_selected: true }],
  module_property: { default_layout_type: 'private' },
};

async function setup() {
  const engine = fakeEngine({
    'outbox.status': () => ({
      counts: { pending: 2, sending: 0, failed: 0, conflict: 0 },
      total: 2,
      workOffline: false,
      online: false,
      nextAttemptAt: null,
      replayed: 0,
      at: 0,
    }),
    'outbox.list': () => [
      entry({
        id: 1,
        kind: 'update',
        fields: [{ field: 'name', label: 'Name', type: 'name', base: 'Crane 6', mine: 'Crane 7' }],
      }),
      entry({
        id: 2,
        kind: 'config',
        moduleId: 'tmp-m-00000000000000a1',
        module: 'Assets',
        recordId: 'tmp-m-00000000000000a1',
        recordName: null,
        config: {
          action: 'module.create',
          target: 'Assets',
          summary: 'Create module Assets',
          request: { method: 'POST', path: '/portal/1000000000001/modules', body: BODY },
        },
      }),
    ],
  });
  const outbox = createOutboxStore(engine.api);
  await outbox.getState().load();
  render(createElement(OutboxContext.Provider, { value: outbox }, createElement(OutboxView)));
}

describe('a configuration change in the Outbox', () => {
  it('shows its summary, its module and, once opened, the request it will send', async () => {
    const user = userEvent.setup();
    await setup();
    const [record, config] = screen.getAllByTestId('outbox-entry');

    expect(config!.dataset.kind).toBe('config');
    expect(config!.textContent).toContain('Configuration change');
    expect(config!.textContent).toContain('Create module Assets');
    expect(config!.textContent).toContain('module Assets');
    // Not the temporary id it carries as its record.
    expect(config!.textContent).not.toContain('tmp-m-');

    const details = config!.querySelector('details')!;
    expect(details.open).toBe(false);
    await user.click(within(config!).getByText('What will be sent'));
    expect(details.open).toBe(true);
    expect(within(details).getByText('POST /portal/1000000000001/modules')).toBeTruthy();
    expect(within(details).getByLabelText('Body').textContent).toBe(JSON.stringify(BODY, null, 2));

    // A record's change is listed as it was: its record, module and field values, no request.
    expect(record!.textContent).toContain('Changed fields');
    expect(record!.textContent).toContain('Crane 7');
    expect(record!.textContent).toContain('Equipment');
    expect(record!.textContent).toContain('Crane 6 → Crane 7');
    expect(record!.querySelector('details')).toBeNull();
  });
});
