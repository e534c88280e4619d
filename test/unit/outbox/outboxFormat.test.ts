import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../src/shared/ipc/areas/outbox';
import {
  formatValue,
  groupEntries,
  outboxSummary,
  pendingTooltip,
} from '../../../src/renderer/src/features/outbox/outboxFormat';

describe('what the Outbox view and the status bar say', () => {
  it('counts what waits, what was refused and what conflicts', () => {
    expect(outboxSummary({ pending: 2, sending: 1, failed: 0, conflict: 0 })).toBe('3 to send');
    expect(outboxSummary({ pending: 0, sending: 0, failed: 1, conflict: 2 })).toBe(
      '1 refused · 2 conflicts',
    );
    expect(outboxSummary({ pending: 0, sending: 0, failed: 0, conflict: 0 })).toBe('');
  });

  it('words values of every shape in one line', () => {
    expect(
      formatValue('multi_user', [
        { zpuid: '1', name: 'Ann' },
        { zpuid: '2', name: null },
      ]),
    ).toBe('Ann, 2');
    expect(
      formatValue('currency', { currency_code: 'EUR', amount: 3, formatted_amount: 'EUR 3.00' }),
    ).toBe('EUR 3.00');
    expect(formatValue('status', { id: '1', name: 'Open' })).toBe('Open');
    expect(formatValue('check_box', false)).toBe('No');
    expect(formatValue('single_line', null)).toBe('empty');
  });

  it('lists conflicts and refusals before what is on its way', () => {
    const entry = (id: number, state: OutboxEntry['state']) => ({ id, state }) as OutboxEntry;
    const groups = groupEntries([entry(1, 'pending'), entry(2, 'conflict'), entry(3, 'failed')]);
    expect([...groups].map(([g, list]) => [g, list.map((e) => e.id)])).toEqual([
      ['conflict', [2]],
      ['failed', [3]],
      ['sending', []],
      ['pending', [1]],
    ]);
  });

  it('tells in the pending mark when the change was queued and what the service had', () => {
    const queuedAt = '2025-01-06T09:00:00.000Z';
    const text = pendingTooltip(
      { queuedAt, base: 'Old name', state: 'pending' },
      'name',
      Date.parse(queuedAt) + 5 * 60_000,
    );
    expect(text).toMatch(
      /waiting to be sent\. Queued .*\(5 min ago\)\. The service had: Old name\./,
    );
  });
});
