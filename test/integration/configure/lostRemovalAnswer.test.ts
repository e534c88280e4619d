/**
 * A removal the service made is delivered, never refused. The client sends a DELETE again at once
 * after a lost answer (it counts DELETE idempotent); the service then answers "does not exist",
 * which is what our first send left behind. A first send answered so means someone else removed
 * it before ours went: gone too, as the admin asked, and the history says so. A real refusal
 * (the service keeps the thing, for a reason of its own) stays refused.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

/** Loses the answer of the first DELETE whose path ends so; every other request passes. */
function loseFirstDeleteAnswer(s: Session, pathEnd: RegExp) {
  let lost = 0;
  s.setFault((method, url) => {
    if (method === 'DELETE' && pathEnd.test(url.pathname) && lost === 0) {
      lost++;
      return 'lose-answer';
    }
    return 'pass';
  });
  return () => lost;
}

const deletes = (s: Session) => s.writes().filter((w) => w.method === 'DELETE');

async function optionsSetUp() {
  const s = await outboxSession();
  const configure = configureOn(s);
  const category = configure
    .fields(s.portalId, s.module.id)
    .fields.find((f) => f.apiName === 'cf_category')!;
  const options = () => configure.fieldOptions(s.portalId, s.module.id, category.id).options;
  // Removing one held by records clears it from them on the service (and here): not the point.
  const unused = options();
  expect(unused.length).toBeGreaterThanOrEqual(2);
  const remove = (ids: string[]) =>
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: s.module.id,
      fieldId: category.id,
      remove: ids,
    });
  /** The field's options as the service holds them. */
  const serverNames = async () =>
    s.emulator.state.db
      .prepare("SELECT value FROM field_options WHERE field_id = ? AND kind = 'custom_option'")
      .pluck()
      .all(Number(category.id)) as string[];
  /** Another admin removes the options on the service (their own DELETE). */
  const removeElsewhere = async (ids: string[]) => {
    const reply = await s.call('DELETE', `/portal/${s.portalId}/settings/options`, {
      module: s.module.apiName,
      field: category.id,
      custom_options: ids.map((id) => ({ id })),
    });
    expect(reply.status).toBe(204);
  };
  return { s, configure, unused, options, remove, serverNames, removeElsewhere };
}

describe("an option removal answered 'does not exist'", () => {
  it('is delivered when its first answer was lost and the client sent it again', async () => {
    const { s, unused, remove, serverNames, options } = await optionsSetUp();
    const gone = unused[0]!;
    const lost = loseFirstDeleteAnswer(s, /\/settings\/options$/);
    remove([gone.id]);
    await s.outbox.idle();
    expect(lost()).toBe(1);
    // Sent twice by the client (the second met "does not exist"), never refused.
    expect(deletes(s)).toHaveLength(2);
    expect(s.outbox.list()).toEqual([]);
    expect(await serverNames()).not.toContain(gone.name);
    expect(options().map((o) => o.name)).not.toContain(gone.name);
    const [entry] = s.outbox.historyPage({}, 0, 1).entries;
    expect(entry!.note).toMatch(
      new RegExp(`“${gone.name}” was removed: the service's first answer was lost`),
    );
  });

  it('is delivered, saying so, when another admin removed the option first', async () => {
    const { s, unused, remove, serverNames, removeElsewhere } = await optionsSetUp();
    const gone = unused[0]!;
    s.outbox.setWorkOffline(true);
    remove([gone.id]);
    await removeElsewhere([gone.id]);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(await serverNames()).not.toContain(gone.name);
    const [entry] = s.outbox.historyPage({}, 0, 1).entries;
    expect(entry!.note).toMatch(
      new RegExp(`“${gone.name}” was already removed on the service \\(by someone else\\)`),
    );
  });

  it('removes the rest when another admin removed one of them first', async () => {
    const { s, unused, remove, serverNames, removeElsewhere } = await optionsSetUp();
    const [theirs, mine] = [unused[0]!, unused[1]!];
    s.outbox.setWorkOffline(true);
    remove([theirs.id, mine.id]);
    await removeElsewhere([theirs.id]);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const names = await serverNames();
    expect(names).not.toContain(theirs.name);
    expect(names).not.toContain(mine.name);
    const [entry] = s.outbox.historyPage({}, 0, 1).entries;
    expect(entry!.note).toMatch(new RegExp(`“${theirs.name}” was already removed`));
    expect(entry!.note).toMatch(/the others were removed/);
  });
});

describe("a status removal answered 'does not exist'", () => {
  it('is delivered when its first answer was lost', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const ref = { portalId: s.portalId, moduleId: assets.id };
    configure.choices.changeStatuses({
      ...ref,
      add: [{ name: 'Parked', color: '#777777', closed: false, transitions: [] }],
    });
    await s.outbox.idle();
    const parked = configure.choices
      .statuses(s.portalId, assets.id)
      .statuses.find((status) => status.name === 'Parked')!;
    const lost = loseFirstDeleteAnswer(s, /\/settings\/options$/);
    configure.choices.changeStatuses({ ...ref, remove: [parked.id] });
    await s.outbox.idle();
    expect(lost()).toBe(1);
    expect(s.outbox.list()).toEqual([]);
    const names = s.emulator.state.db
      .prepare('SELECT name FROM statuses WHERE module_id = ?')
      .pluck()
      .all(Number(assets.id));
    expect(names).not.toContain('Parked');
    expect(
      configure.choices.statuses(s.portalId, assets.id).statuses.map((status) => status.name),
    ).not.toContain('Parked');
  });
});

describe("a section's deletion answered 'does not exist'", () => {
  it('is delivered when its first answer was lost, and when another admin deleted it first', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const standard = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!;
    for (const name of ['Lost answer', 'Deleted elsewhere']) {
      configure.putSection({
        portalId: s.portalId,
        moduleId: assets.id,
        layoutId: standard.id,
        name,
      });
    }
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const section = (name: string) =>
      configure
        .layouts(s.portalId, assets.id)
        .layouts.find((l) => l.id === standard.id)!
        .sections.find((sec) => sec.name === name)!;
    const lostOne = section('Lost answer');
    const theirs = section('Deleted elsewhere');

    const lost = loseFirstDeleteAnswer(s, /\/sections\/\d+$/);
    configure.deleteSection(s.portalId, assets.id, standard.id, lostOne.id);
    await s.outbox.idle();
    expect(lost()).toBe(1);
    expect(s.outbox.list()).toEqual([]);

    s.outbox.setWorkOffline(true);
    configure.deleteSection(s.portalId, assets.id, standard.id, theirs.id);
    const elsewhere = await s.call(
      'DELETE',
      `/portal/${s.portalId}/settings/layouts/${standard.id}/sections/${theirs.id}?module=${assets.apiName}`,
    );
    expect(elsewhere.status).toBe(204);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const [entry] = s.outbox.historyPage({}, 0, 1).entries;
    expect(entry!.note).toMatch(/already (removed|deleted) on the service \(by someone else\)/);
    const left = configure
      .layouts(s.portalId, assets.id)
      .layouts.find((l) => l.id === standard.id)!
      .sections.map((sec) => sec.name);
    expect(left).not.toContain('Lost answer');
    expect(left).not.toContain('Deleted elsewhere');
  });
});
