/** The configuration actions record changes wait for are those configure queues by these names. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpState } from '../../../src/main/outbox/outboxTypes';
import { fieldOpAction } from '../../../src/main/configure/fieldOps';
import { optionOpAction } from '../../../src/main/configure/optionOps';
import { statusOpAction } from '../../../src/main/configure/statusOps';
import {
  heldRecordError,
  holdsRecords,
  RECORDS_WAIT_FOR,
} from '../../../src/main/outbox/recordsWaitFor';

describe('recordsWaitFor', () => {
  it("names configure's option, field and status actions that change what a record may hold", () => {
    expect([...RECORDS_WAIT_FOR].sort()).toEqual(
      [
        optionOpAction('addOptions'),
        optionOpAction('renameOptions'),
        optionOpAction('removeOptions'),
        fieldOpAction('updateField'),
        fieldOpAction('deleteField'),
        statusOpAction('addStatuses'),
        statusOpAction('updateStatuses'),
        statusOpAction('removeStatuses'),
      ].sort(),
    );
    expect(holdsRecords({ kind: 'config', action: statusOpAction('moveStatus') })).toBe(false);
    expect(holdsRecords({ kind: 'config', action: optionOpAction('moveOption') })).toBe(false);
    expect(holdsRecords({ kind: 'config', action: fieldOpAction('createField') })).toBe(false);
    expect(holdsRecords({ kind: 'update', action: null })).toBe(false);
  });

  it('says what it waits for and what to do, in words that read well', () => {
    const summary = 'Rename “High” to “Urgent”';
    const first =
      'This change waits until the configuration changes of Assets queued before it are sent: the service would refuse a record change naming a field or option they change. The first of them: Rename “High” to “Urgent”.';
    expect(heldRecordError('Assets', { state: 'pending', error: null }, summary)).toBe(
      `${first} Nothing to do: this change goes once they are delivered.`,
    );
    expect(
      heldRecordError('Assets', { state: 'failed', error: 'The option is gone' }, summary),
    ).toBe(
      `${first} It was refused: The option is gone. Retry it, or discard it in the Outbox, and the queue goes on.`,
    );
    expect(heldRecordError('Assets', { state: 'conflict', error: null }, summary)).toBe(
      `${first} It is in conflict with the service: resolve it (keep yours or theirs), or discard it in the Outbox, and the queue goes on.`,
    );
  });

  it('never nests quotation marks, whatever the summary and the refusal say', () => {
    /** How deep “ ” go in a text: a quote inside a quote is 2. */
    const depth = (text: string) => {
      let now = 0;
      let most = 0;
      for (const char of text) {
        if (char === '“') most = Math.max(most, ++now);
        else if (char === '”') now--;
      }
      return most;
    };
    const name = fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !/[“”]/.test(n));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, name), { minLength: 1, maxLength: 3 }),
        fc.option(name, { nil: null }),
        fc.constantFrom('pending', 'failed', 'conflict') as fc.Arbitrary<OpState>,
        (renames, refusal, state) => {
          const summary = renames.map(([a, b]) => `Rename “${a}” to “${b}”`).join('; ');
          const error = refusal === null ? null : `“${refusal}” is no longer an option.`;
          const text = heldRecordError('Assets', { state, error }, summary);
          expect(depth(text)).toBeLessThanOrEqual(1);
          expect(text).toContain(summary);
        },
      ),
    );
  });
});
