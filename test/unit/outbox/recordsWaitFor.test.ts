/** The configuration actions record changes wait for are those configure queues by these names. */
import { describe, expect, it } from 'vitest';
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

  it('says what to do when the change it waits for cannot go by itself', () => {
    const summary = 'Rename “A” to “B”';
    expect(heldRecordError('Assets', { state: 'pending', error: null }, summary)).toContain(
      'Nothing to do: it goes once they are delivered.',
    );
    expect(heldRecordError('Assets', { state: 'failed', error: 'No.' }, summary)).toContain(
      '“Rename “A” to “B”” was refused (No.): retry it, or discard it',
    );
    expect(heldRecordError('Assets', { state: 'conflict', error: null }, summary)).toContain(
      'resolve it (keep yours or theirs), or discard it',
    );
  });
});
