/**
 * Users in an imported file named by their email, as spreadsheets of people name them: read
 * against the portal's people as the mirror knows them (names are shared; an email is not).
 */
import { describe, expect, it } from 'vitest';
import { LAYOUT, PORTAL, recordsWorkspace } from '../records/workspace';
import { openFile, settled } from './importSteps';

describe('users in an imported file', () => {
  it('are read by email, in any case', async () => {
    const w = recordsWorkspace();
    w.mirror.metadata.replaceSections(PORTAL, LAYOUT, [
      {
        id: 's1',
        name: 'All',
        position: 1,
        fields: ['f1', 'f2', 'f6', 'f7'].map((fieldId, i) => ({ fieldId, position: i + 1 })),
      },
    ]);
    const file = await openFile(
      w,
      'people.csv',
      'name,cf_custodian,cf_watchers\r\nLaptop,MAYA@example.test,"jonas@example.test, Ärger Ölmann"\r\nDesk,nobody@example.test,\r\n',
    );
    await w.ok('records.importCheck', {
      importId: file.importId,
      targets: file.columns.map((c) => c.target),
      mode: 'create',
    });
    expect(await settled(w, file.importId)).toMatchObject({ ready: 1, failing: 1 });
    const { failures } = await w.ok('records.importFailures', {
      importId: file.importId,
      offset: 0,
      limit: 10,
    });
    expect(failures).toEqual([
      {
        row: 3,
        column: 'cf_custodian',
        reason: 'no user of this portal is named "nobody@example.test" or has that email.',
      },
    ]);
    await w.ok('records.importConfirm', { importId: file.importId });
    await settled(w, file.importId);
    const [created] = await w.ok('outbox.list', {});
    expect(Object.fromEntries(created!.fields.map((f) => [f.field, f.mine]))).toMatchObject({
      cf_custodian: { zpuid: '5001', name: 'Maya Raman' },
      cf_watchers: [
        { zpuid: '5002', name: 'Jonas Weber' },
        { zpuid: '5003', name: 'Ärger Ölmann' },
      ],
    });
  });
});
