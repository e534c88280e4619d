/**
 * A user field's users and roles administered offline against the emulator: the portal's roles
 * as the service names them are kept by the sync; users and roles are added (to a field made
 * offline too, after it exists) and removed in bulk, an add whose answer was lost is not sent
 * twice, records keep their values, and the rules (members only, known roles, nothing twice)
 * refuse before anything is queued.
 */
import { describe, expect, it } from 'vitest';
import type { FieldSettings } from '../../../src/shared/ipc/areas/configure';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

const WATCHERS: FieldSettings = {
  label: 'Reviewers',
  mandatory: false,
  pii: false,
  encrypted: false,
  description: null,
  defaultValue: null,
  hasInfo: false,
  currencyListType: null,
  currencyCode: null,
  precision: null,
  userListType: 'selected_users',
};

function served(s: Session, label: string) {
  const rows = s.emulator.state.db
    .prepare(
      `SELECT o.kind, o.value FROM field_options o JOIN fields f ON f.id = o.field_id
       WHERE f.display_name = ? AND o.kind IN ('user', 'role') ORDER BY o.kind, o.value`,
    )
    .all(label) as { kind: string; value: string }[];
  return {
    users: rows.filter((row) => row.kind === 'user').map((row) => row.value),
    roles: rows.filter((row) => row.kind === 'role').map((row) => row.value),
  };
}

describe("a user field's users and roles administered offline", () => {
  it('adds and removes users and roles, on a field made offline too, exactly once', async () => {
    const s = await outboxSession({ records: 60 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const fields = configure.fields(s.portalId, assets.id).fields;
    const custodian = fields.find((f) => f.type === 'user_pick_list')!;
    const ref = { portalId: s.portalId, moduleId: assets.id, fieldId: custodian.id };
    const view = configure.choices.fieldPeople(s.portalId, assets.id, custodian.id);
    // The roles the service offers, as it names them, kept by the sync.
    expect(view.offeredRoles.map((role) => role.name)).toEqual([
      'Administrator',
      'Manager',
      'Employee',
      'Contractor',
      'Client',
    ]);
    // Members: the people the mirror knows of the portal.
    const people = s.store.db
      .prepare('SELECT zpuid FROM portal_users WHERE portal_id = ? ORDER BY zpuid')
      .pluck()
      .all(s.portalId) as string[];
    expect(view.members.map((m) => m.id).sort()).toEqual(people);
    const [first, second] = view.members.filter((m) => !view.users.some((u) => u.id === m.id));
    expect(second).toBeDefined();
    const manager = view.offeredRoles.find((role) => role.name === 'Manager')!;
    const client = view.offeredRoles.find((role) => role.name === 'Client')!;

    s.outbox.setWorkOffline(true);
    const refused = (args: Record<string, string[]>) => () =>
      configure.choices.changePeople({ ...ref, ...args });
    expect(refused({ addUsers: ['987654321987'] })).toThrow(/not a member of this portal/);
    expect(refused({ addRoles: ['77'] })).toThrow(/not one of the portal's roles/);
    expect(refused({ addUsers: [first!.id, first!.id] })).toThrow(
      /already one of this field's users/,
    );
    expect(refused({ removeUsers: [first!.id] })).toThrow(/not one of this field's users/);
    expect(s.outbox.list()).toEqual([]);

    let shown = configure.choices.changePeople({
      ...ref,
      addUsers: [first!.id, second!.id],
      addRoles: [manager.id, client.id],
    });
    expect(shown.users.filter((u) => u.localOnly).map((u) => u.id)).toEqual([
      first!.id,
      second!.id,
    ]);
    expect(shown.roles.filter((r) => r.localOnly).map((r) => r.name)).toEqual([
      'Manager',
      'Client',
    ]);
    expect(refused({ addUsers: [first!.id] })).toThrow(/already one of this field's users/);
    // Removing one queued before the add went: both go, in order.
    shown = configure.choices.changePeople({
      ...ref,
      removeUsers: [second!.id],
      removeRoles: [client.id],
    });
    expect(shown.users.map((u) => u.id)).not.toContain(second!.id);

    // A user field made offline gets its people after it exists.
    const layoutId = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!.id;
    const reviewers = configure
      .createField({
        portalId: s.portalId,
        moduleId: assets.id,
        type: 'multi_user',
        settings: WATCHERS,
        layoutId,
        sectionId: null,
      })
      .fields.find((f) => f.label === 'Reviewers')!;
    configure.choices.changePeople({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: reviewers.id,
      addUsers: [second!.id],
    });

    const before = s.emulator.state.db
      .prepare('SELECT id, custom FROM entities WHERE module_id = ? ORDER BY id')
      .all(Number(assets.id));
    // The first add's answer is lost once; the retry sends nothing twice.
    let lost = false;
    s.setFault((method, url) => {
      if (!lost && method === 'POST' && url.pathname.endsWith('/settings/options')) {
        lost = true;
        return 'lose-answer';
      }
      return 'pass';
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    s.outbox.retry();
    await s.outbox.idle();
    expect(lost).toBe(true);
    expect(s.outbox.list()).toEqual([]);

    expect(served(s, custodian.label)).toEqual({
      users: [first!.id],
      roles: [manager.id],
    });
    expect(served(s, 'Reviewers')).toEqual({ users: [second!.id], roles: [] });
    // Records keep their values.
    expect(
      s.emulator.state.db
        .prepare('SELECT id, custom FROM entities WHERE module_id = ? ORDER BY id')
        .all(Number(assets.id)),
    ).toEqual(before);
    const after = configure.choices.fieldPeople(s.portalId, assets.id, custodian.id);
    expect(after.users.map((u) => [u.id, u.localOnly, u.pending.length])).toEqual([
      [first!.id, false, 0],
    ]);
    expect(after.roles.map((r) => [r.name, r.localOnly])).toEqual([['Manager', false]]);

    // Removed again, online.
    configure.choices.changePeople({ ...ref, removeUsers: [first!.id], removeRoles: [manager.id] });
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(served(s, custodian.label)).toEqual({ users: [], roles: [] });
    expect(configure.choices.fieldPeople(s.portalId, assets.id, custodian.id).users).toEqual([]);
  });
});
