import { describe, expect, it } from 'vitest';
import { testRouter } from './routerSupport';

describe('default publishers', () => {
  it('platform services exist from the start and raise their events without any key or schema set-up', async () => {
    const { engine } = await testRouter();
    const names = engine
      .overview()
      .publishers.map((p) => [p.kind, p.name, p.events.map((e) => e.apiName)]);
    expect(names).toEqual([
      ['platform', 'Data updates', ['SyncCompleted', 'SyncFailed']],
      ['platform', 'File actions', ['BackupDownloaded']],
      ['platform', 'Authentication activity', ['SignedIn', 'TokenRefreshed', 'SignedOut']],
    ]);
    const auth = engine.overview().publishers[2]!;
    const bin = engine.saveTarget({ name: 'bin', kind: 'request_bin' });
    engine.saveRule({
      name: 'sign-ins',
      eventConfigIds: [auth.events[0]!.id],
      targetIds: [bin.id],
    });
    const id = engine.raisePlatformEvent('authentication', 'SignedIn', {
      account: 'ada@example.com',
      dc: 'us',
    });
    await engine.settle();
    expect(engine.getEvent(id)).toMatchObject({ status: 'Success', version: 1 });
    const body = JSON.parse(engine.requestBin(bin.id)[0]!.body!);
    expect(body.events[0].source).toBe(`${auth.id}/accounts/${engine.account().org_id}`);
    // The schema follows what the service sends.
    expect(engine.publisher(auth.id).events[0]!.paths.map((p) => p.path)).toEqual([
      'account',
      'dc',
    ]);
  });

  it("a portal's suite publisher has Create, Update, Delete, Approve and Reject per module", async () => {
    const { engine } = await testRouter();
    const suite = engine.ensureSuitePublisher({
      id: '5001',
      name: 'Demo',
      modules: ['cm_tickets', '2fa-module'],
    });
    expect(suite.kind).toBe('suite');
    expect(suite.events.map((e) => e.apiName)).toEqual([
      'cm_tickets_Create',
      'cm_tickets_Update',
      'cm_tickets_Delete',
      'cm_tickets_Approve',
      'cm_tickets_Reject',
      'm_2fa_module_Create',
      'm_2fa_module_Update',
      'm_2fa_module_Delete',
      'm_2fa_module_Approve',
      'm_2fa_module_Reject',
    ]);
    // Each names its scope, for the rule form's event picker (issue 19); other events name none.
    expect(suite.events.map((e) => e.scope)).toEqual([
      ...['Create', 'Update', 'Delete', 'Approve', 'Reject'],
      ...['Create', 'Update', 'Delete', 'Approve', 'Reject'],
    ]);
    const custom = engine.createPublisher({ name: 'Shop' }).publisher;
    expect(engine.createEvent({ publisherId: custom.id, apiName: 'order_Create' }).scope).toBe(
      null,
    );
    expect(engine.overview().publishers[0]!.events.every((e) => e.scope === null)).toBe(true);
    // Calling again (a new sync) adds nothing twice.
    expect(
      engine.ensureSuitePublisher({ id: '5001', name: 'Demo', modules: ['cm_tickets'] }).events,
    ).toHaveLength(10);
    const id = engine.raiseSuiteEvent('5001', 'cm_tickets', 'Update', {
      id: '77',
      name: 'Printer',
    });
    await engine.settle();
    expect(engine.getEvent(id)).toMatchObject({
      apiName: 'cm_tickets_Update',
      status: 'Unmatched',
    });
  });
});
