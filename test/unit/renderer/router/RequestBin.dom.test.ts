// @vitest-environment happy-dom
/**
 * Issue 19: the request bin showed unformatted JSON without times. Now each request, newest
 * first, shows when it came (local time, and how long ago by the router's clock), its method and
 * address, its headers folded (and how many were left out), and its body as a JSON tree whose
 * levels open and close, or as text when it is not JSON.
 */
import { createElement } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TargetsPanel } from '../../../../src/renderer/src/features/router/TargetsPanel';
import { formatTime } from '../../../../src/renderer/src/features/router/routerFormat';
import type { BinEntryView } from '../../../../src/shared/ipc/areas/router';
import { useDomTestEnvironment } from '../support/dom';
import { NOW_MS, overviewOf, renderRouterPanel, REQUEST_BIN } from './routerFixtures';

useDomTestEnvironment();

const BIN = REQUEST_BIN;

const PAYLOAD = {
  rule_id: '7001',
  version: 1,
  attempt: 1,
  events: [
    { id: '5', data: { order: 'A-1', paid: true, note: null, customer: { email: 'a@x.io' } } },
  ],
};

const ENTRIES: BinEntryView[] = [
  {
    id: 2,
    targetId: BIN.id,
    receivedAt: NOW_MS - 90_000,
    method: 'POST',
    url: `sandbox://request_bin/${BIN.id}?email=a%40x.io`,
    headers: { 'content-type': 'application/json', 'x-order': 'A-1' },
    headersOmitted: 1,
    body: JSON.stringify(PAYLOAD),
  },
  {
    id: 1,
    targetId: BIN.id,
    receivedAt: NOW_MS - 3 * 3_600_000,
    method: 'PUT',
    url: `sandbox://request_bin/${BIN.id}`,
    headers: { 'content-type': 'text/plain' },
    headersOmitted: 0,
    body: 'plain words, not JSON',
  },
];

async function openBin() {
  const overview = overviewOf([], { targets: [BIN] });
  const { engine } = await renderRouterPanel(createElement(TargetsPanel), () => overview, {
    'router.requestBin': () => ENTRIES,
  });
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Show received' }));
  const bin = await screen.findByRole('region', { name: 'Received by bin' });
  return { engine, user, bin };
}

describe('a request bin', () => {
  it('lists requests newest first with their local time, how long ago, method and address', async () => {
    const { engine, bin } = await openBin();
    expect(engine.argsOf('router.requestBin')).toEqual([{ targetId: BIN.id, limit: 20 }]);
    // The keyboard's focus comes to the bin opened below the list.
    expect(document.activeElement).toBe(
      within(bin).getByRole('heading', { name: 'Received by bin' }),
    );
    const entries = within(bin).getAllByRole('article');
    expect(entries.map((entry) => entry.getAttribute('aria-label'))).toEqual([
      `POST received ${formatTime(ENTRIES[0]!.receivedAt)}`,
      `PUT received ${formatTime(ENTRIES[1]!.receivedAt)}`,
    ]);
    const first = entries[0]!;
    expect(
      within(first).getByText(`POST sandbox://request_bin/${BIN.id}?email=a%40x.io`),
    ).toBeTruthy();
    expect(first.querySelector('time')!.getAttribute('datetime')).toBe(
      new Date(ENTRIES[0]!.receivedAt).toISOString(),
    );
    expect(first.textContent).toContain('· 1 min ago');
    expect(entries[1]!.textContent).toContain('· 3 h ago');
  });

  it('folds the headers, saying how many were left out', async () => {
    const { user, bin } = await openBin();
    const first = within(bin).getAllByRole('article')[0]!;
    const details = first.querySelector('details.router-bin__headers') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    const summary = within(first).getByText('Headers (2; 1 left out)');
    await user.click(summary);
    expect(details.open).toBe(true);
    const terms = [...details.querySelectorAll('dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling!.textContent,
    ]);
    expect(terms).toEqual([
      ['content-type', 'application/json'],
      ['x-order', 'A-1'],
    ]);
    expect(details.textContent).toContain('at most 64 headers and 16 KiB');
    expect(within(bin).getAllByRole('article')[1]!.textContent).toContain('Headers (1)');
  });

  it('shows a JSON body as a tree whose deeper levels open on demand, and other bodies as text', async () => {
    const { user, bin } = await openBin();
    const [first, second] = within(bin).getAllByRole('article');
    const tree = within(first!).getByRole('list', { name: 'Body' });
    /** The disclosure of one level, by what its summary says. */
    const level = (text: string) =>
      [...tree.querySelectorAll('summary')].find((summary) => summary.textContent === text)!;
    // The payload and its events are open; strings quoted, numbers and literals as they are.
    expect(tree.textContent).toMatch(/^Body: \{4 keys\}rule_id: "7001"/);
    expect(tree.textContent).toContain('version: 1');
    expect(tree.textContent).toContain('events: [1 item]');
    expect(tree.textContent).toContain('0: {2 keys}');
    // events[0] is the third level: closed, and not built until opened.
    expect(tree.textContent).not.toContain('order');
    await user.click(level('0: {2 keys}'));
    expect(tree.textContent).toContain('data: {4 keys}');
    await user.click(level('data: {4 keys}'));
    expect(tree.textContent).toContain('order: "A-1"');
    expect(tree.textContent).toContain('paid: true');
    expect(tree.textContent).toContain('note: null');
    expect(tree.textContent).toContain('customer: {1 key}');
    // Closing a level hides what it holds.
    await user.click(level('data: {4 keys}'));
    expect(tree.textContent).not.toContain('order');

    expect(within(second!).queryByRole('list', { name: 'Body' })).toBeNull();
    expect(within(second!).getByText('Body (not JSON), as received:')).toBeTruthy();
    expect(second!.querySelector('pre')!.textContent).toBe('plain words, not JSON');
  });
});
