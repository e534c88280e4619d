import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OpKind, type OutboxEntry } from '../../../src/shared/ipc/areas/outbox';
import {
  COMMENT_START_MAX,
  commentStart,
  formatValue,
  groupEntries,
  kindLabel,
  operationSubject,
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

describe('what a queued, refused or delivered change says it is about', () => {
  const router = { recordId: '1000000000386', recordName: 'Ubiquiti router #1' };
  const dock = { recordId: '1000000000390', recordName: 'Cisco docking station #2' };
  const words = (op: Parameters<typeof operationSubject>[0]) =>
    `${kindLabel(op.kind)} ${operationSubject(op)}`;

  it('names the record deleted for good, and the comment deleted by its start', () => {
    expect(words({ kind: 'delete', ...router, comment: null })).toBe(
      'Delete for good Ubiquiti router #1',
    );
    expect(
      words({
        kind: 'comment_delete',
        ...dock,
        comment:
          'Battery swollen;\nsent for repair on Monday, back by the end of the month at the latest',
      }),
    ).toBe(
      'Delete comment “Battery swollen; sent for repair on Monday, back by the end…” on Cisco docking station #2',
    );
    // A delete queued before the comment's text was kept.
    expect(words({ kind: 'comment_delete', ...dock, comment: null })).toBe(
      'Delete comment a comment on Cisco docking station #2',
    );
    // A record the mirror no longer names is a record, not a bare number.
    expect(
      words({ kind: 'delete', recordId: '1000000000386', recordName: null, comment: null }),
    ).toBe('Delete for good record 1000000000386');
  });

  it('words the other comment changes the same way', () => {
    expect(words({ kind: 'comment_add', ...dock, comment: 'Checked the battery' })).toBe(
      'New comment “Checked the battery” on Cisco docking station #2',
    );
    expect(words({ kind: 'comment_edit', ...dock, comment: 'Checked it twice' })).toBe(
      'Edited comment “Checked it twice” on Cisco docking station #2',
    );
  });

  it('never says a change happened while it may still be queued or refused', () => {
    expect(OpKind.options.map(kindLabel).filter((label) => /^Deleted\b/.test(label))).toEqual([]);
  });

  it("shows a comment's start on one line, cut at a word, never past the limit", () => {
    expect(commentStart('Lorem ipsum dolor', 11)).toBe('Lorem ipsum…');
    expect(commentStart('Lorem ipsum dolor', 13)).toBe('Lorem ipsum…');
    expect(commentStart('Loremipsumdolor', 8)).toBe('Loremips…');
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('word', 'a', 'longerword', ' ', '\n', '\t', 'é', '😀', '“'), {
          maxLength: 60,
        }),
        (parts) => {
          const text = parts.join('');
          const flat = text.replace(/\s+/g, ' ').trim();
          const start = commentStart(text);
          expect(start).not.toMatch(/[\n\r\t]/);
          if ([...flat].length <= COMMENT_START_MAX) {
            expect(start).toBe(flat);
          } else {
            expect(start.endsWith('…')).toBe(true);
            const kept = start.slice(0, -1);
            expect(flat.startsWith(kept)).toBe(true);
            expect([...kept].length).toBeLessThanOrEqual(COMMENT_START_MAX);
            expect([...kept].length).toBeGreaterThanOrEqual(COMMENT_START_MAX / 2 - 1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
