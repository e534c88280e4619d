// @vitest-environment happy-dom
/**
 * The Outbox's "Sent" tab: deliveries newest first a page at a time, searched and filtered by
 * kind through the engine, each opening to its request and answer; exported as CSV or JSON, a
 * refused export explained beside its buttons.
 */
import { createElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutboxContext } from '../../../../src/renderer/src/features/outbox/OutboxContext';
import { OutboxView } from '../../../../src/renderer/src/features/outbox/OutboxView';
import { createOutboxStore } from '../../../../src/renderer/src/features/outbox/outboxStore';
import type { HistoryEntry } from '../../../../src/shared/ipc/areas/outboxHistory';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';

useDomTestEnvironment();
afterEach(() => vi.restoreAllMocks());

const BODY = '{"name":"Crane 7","cf_notes":"checked, \\"twice\\""}';

function delivery(id: number): HistoryEntry {
  const comment = id % 5 === 0 && id !== 250;
  return {
    id,
    opId: id + 1000,
    portalId: '1000000000001',
    moduleId: '2001',
    recordId: String(5000 + id),
    recordName: id === 250 ? 'Crane 7' : `Record ${id}`,
    module: 'Equipment',
    kind: comment ? 'comment_add' : 'update',
    action: null,
    fields: comment ? [] : [{ field: 'name', label: 'Name' }],
    comment: comment ? `Comment ${id}` : null,
    queuedAt: '2026-11-26T08:00:00.000Z',
    sentAt: '2026-11-26T08:00:01.000Z',
    answeredAt: new Date(Date.UTC(2026, 10, 26, 8, 0, 0) + id * 1000).toISOString(),
    method: comment ? 'POST' : 'PATCH',
    path: `/api/v3/portal/1000000000001/projects/equipment/entities/${5000 + id}`,
    requestBody: id === 250 ? BODY : '{"name":"x"}',
    requestLength: id === 250 ? BODY.length : 12,
    status: id === 249 ? 422 : 200,
    answer: id === 250 ? '{"entity":{"id":"5250","na' : '{}',
    answerLength: id === 250 ? 9000 : 2,
    requests: 1,
    note: null,
  };
}

const ALL = Array.from({ length: 250 }, (_, i) => delivery(250 - i)); // newest first

async function setup(exportFails = false) {
  const engine = fakeEngine({
    'outbox.status': () => ({
      counts: { pending: 0, sending: 0, failed: 0, conflict: 0 },
      total: 0,
      workOffline: false,
      online: true,
      nextAttemptAt: null,
      replayed: 250,
      at: 0,
    }),
    'outbox.list': () => [],
    'outbox.history': ({ text, kinds, offset, limit }) => {
      const found = ALL.filter(
        (e) =>
          (!kinds || kinds.includes(e.kind)) &&
          (!text || JSON.stringify(e).toLowerCase().includes(text.toLowerCase())),
      );
      return { entries: found.slice(offset, offset + limit), total: found.length, offset };
    },
    'outbox.exportHistory': ({ format }) => {
      if (exportFails)
        throw new Error('12,000 sent changes match; an export takes at most 10,000.');
      return { fileName: `portaldesk-sent-x.${format}`, text: 'id\r\n', rows: 250 };
    },
  });
  const outbox = createOutboxStore(engine.api);
  await outbox.getState().load();
  render(createElement(OutboxContext.Provider, { value: outbox }, createElement(OutboxView)));
  return engine;
}

const rows = () => screen.getAllByTestId('history-row');

describe('the Sent tab', () => {
  it('lists deliveries newest first, a page at a time, reached by keyboard', async () => {
    const user = userEvent.setup();
    const engine = await setup();
    const queued = screen.getByRole('tab', { name: 'Queued' });
    expect(queued.getAttribute('aria-selected')).toBe('true');
    queued.focus();
    await user.keyboard('{ArrowRight}');
    const sent = screen.getByRole('tab', { name: 'Sent' });
    expect(sent.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(sent);
    await waitFor(() => expect(rows()).toHaveLength(100));
    expect(rows()[0]!.textContent).toContain('Crane 7');
    // A comment change says which comment, by its start, and the record it is on.
    expect(rows()[5]!.querySelector('summary')?.textContent).toContain(
      'New comment“Comment 245” on Record 245 · Equipment',
    );
    expect(screen.getByTestId('history-range').textContent).toBe('1–100 of 250');
    expect(screen.getByRole('button', { name: 'Newer' })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() =>
      expect(screen.getByTestId('history-range').textContent).toBe('101–200 of 250'),
    );
    expect(rows()[0]!.textContent).toContain('Record 150');
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(screen.getByRole('button', { name: 'Older' })).toHaveProperty('disabled', true);
    expect(engine.argsOf('outbox.history').map((a) => a?.offset)).toContain(200);
  });

  it('searches and filters by kind through the engine', async () => {
    const user = userEvent.setup();
    const engine = await setup();
    await user.click(screen.getByRole('tab', { name: 'Sent' }));
    await waitFor(() => expect(rows()).toHaveLength(100));
    await user.type(screen.getByLabelText('Search'), 'crane');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(engine.argsOf('outbox.history').at(-1)).toMatchObject({ text: 'crane', offset: 0 });

    await user.clear(screen.getByLabelText('Search'));
    await user.selectOptions(screen.getByLabelText('Kind'), 'Comments');
    await waitFor(() => expect(screen.getByTestId('history-range').textContent).toBe('1–49 of 49'));
    expect(rows().every((row) => row.dataset.kind === 'comment_add')).toBe(true);
    expect(engine.argsOf('outbox.history').at(-1)).toMatchObject({
      kinds: ['comment_add', 'comment_edit', 'comment_delete'],
    });

    await user.type(screen.getByLabelText('Search'), 'no such words');
    await waitFor(() =>
      expect(screen.getByTestId('history-empty').textContent).toBe(
        'No sent change matches this search.',
      ),
    );
  });

  it('opens a row to its request and answer, formatted, saying what was cut off', async () => {
    const user = userEvent.setup();
    await setup();
    await user.click(screen.getByRole('tab', { name: 'Sent' }));
    await waitFor(() => expect(rows()).toHaveLength(100));
    const [first, second] = rows() as [HTMLElement, HTMLElement];
    const details = first.querySelector('details')!;
    expect(details.open).toBe(false);
    await user.click(within(first).getByText('Crane 7'));
    expect(details.open).toBe(true);
    const request = within(first).getByRole('region', { name: 'Request' });
    expect(request.textContent).toContain(
      'PATCH /api/v3/portal/1000000000001/projects/equipment/entities/5250',
    );
    expect(within(first).getByLabelText('Request body').textContent).toBe(
      JSON.stringify(JSON.parse(BODY), null, 2),
    );
    const answer = within(first).getByRole('region', { name: 'Answer' });
    expect(answer.textContent).toContain('HTTP 200');
    // A cut-off answer is shown as it is, with how much of it there was.
    expect(within(first).getByLabelText('Answer body').textContent).toBe(
      '{"entity":{"id":"5250","na',
    );
    expect(answer.textContent).toContain('Showing the first 26 of 9,000 characters.');
    // A refusal's status is marked.
    expect(second.querySelector('.history-row__status.is-failed')?.textContent).toBe('422');
  });

  it('exports what matches as a file of its format', async () => {
    const user = userEvent.setup();
    const made = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const engine = await setup();
    await user.click(screen.getByRole('tab', { name: 'Sent' }));
    await waitFor(() => expect(rows()).toHaveLength(100));
    await user.selectOptions(screen.getByLabelText('Kind'), 'Edits');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(made).toHaveBeenCalledTimes(1));
    expect((made.mock.calls[0]![0] as Blob).type).toBe('text/csv');
    expect(engine.argsOf('outbox.exportHistory')).toEqual([{ format: 'csv', kinds: ['update'] }]);
    expect(screen.getByText('Saved portaldesk-sent-x.csv: 250 sent changes.')).toBeTruthy();
  });

  it('explains a refused export beside its buttons and moves the focus there', async () => {
    const user = userEvent.setup();
    await setup(true);
    await user.click(screen.getByRole('tab', { name: 'Sent' }));
    await waitFor(() => expect(rows()).toHaveLength(100));
    await user.click(screen.getByRole('button', { name: 'Export JSON' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('an export takes at most 10,000');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Export CSV' }));
  });
});
