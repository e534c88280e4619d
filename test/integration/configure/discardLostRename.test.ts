/**
 * An option rename whose answer was lost (the service may have applied it) cannot be discarded
 * until its fate is known. Discarded then, it put the queued record changes back to the old name,
 * which the service no longer has: each went and was refused, the user's choice lost. The discard
 * is refused in words, as one being sent is; once the replay has asked the service (delivered, or
 * refused because the option changed there), nothing is uncertain any more. A removal whose answer
 * was lost is held the same way: discarded, it put back bases naming an option the service may
 * have cleared, meeting the cleared value as someone else's change.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

async function setUp() {
  const s = await outboxSession();
  const configure = configureOn(s);
  const category = configure
    .fields(s.portalId, s.module.id)
    .fields.find((f) => f.apiName === 'cf_category')!;
  const [record] = s.recordsWithField('cf_category') as [string];
  const held = (await s.serverRecord(record)).cf_category as string | null;
  const options = () => configure.fieldOptions(s.portalId, s.module.id, category.id).options;
  const chosen = options().find((o) => o.name !== held && o.records === 0)!;
  const change = (args: { rename?: { id: string; name: string }[]; remove?: string[] }) =>
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: s.module.id,
      fieldId: category.id,
      ...args,
    });
  const configOps = () => s.outbox.list().filter((entry) => entry.kind === 'config');
  const recordOps = () => s.outbox.list().filter((entry) => entry.kind === 'update');
  /**
   * Online until an options call's answer is lost, then offline again. Every answer of `method` is
   * lost meanwhile: the client sends a DELETE again at once after a lost answer (it counts it
   * idempotent), and that one's answer must not settle the change either.
   */
  const loseAnswers = async (method: string) => {
    let lost = false;
    s.setFault((m, url) => {
      if (m === method && url.pathname.endsWith('/settings/options')) {
        lost = true;
        return 'lose-answer';
      }
      return 'pass';
    });
    s.outbox.setWorkOffline(false);
    for (let i = 0; i < 500 && !lost; i++) await new Promise((r) => setTimeout(r, 10));
    s.outbox.setWorkOffline(true);
    await s.outbox.idle();
    s.setFault(() => 'pass');
    expect(lost).toBe(true);
  };
  s.outbox.setWorkOffline(true);
  return { s, record, held, chosen, change, configOps, recordOps, loseAnswers, options };
}

describe('an option rename whose answer was lost', () => {
  it('is not discarded until the service was asked; then the record change goes by the name the service has', async () => {
    const { s, record, chosen, change, configOps, recordOps, loseAnswers } = await setUp();
    s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
    change({ rename: [{ id: chosen.id, name: 'Renamed, answer lost' }] });
    expect(recordOps()[0]!.fields[0]!.mine).toBe('Renamed, answer lost');

    await loseAnswers('PATCH');
    const [rename] = configOps();
    expect(rename).toMatchObject({ state: 'pending', uncertain: true });
    // The service did apply it.
    const listed = await s.call(
      'GET',
      `/portal/${s.portalId}/settings/options?module=${s.module.apiName}&field=${(rename!.config!.request.body as { field: string }).field}&page=1&per_page=100&index=0&range=100`,
    );
    expect(JSON.stringify(listed.body)).toContain('Renamed, answer lost');

    expect(() => s.outbox.discard(rename!.id)).toThrow(
      /answer was lost.*may already have renamed .*Nothing was discarded/s,
    );
    // Nothing changed: the rename is queued, the record change still follows it.
    expect(configOps().map((entry) => entry.id)).toEqual([rename!.id]);
    expect(recordOps()[0]!.fields[0]!.mine).toBe('Renamed, answer lost');

    // Online, the replay asks the service: delivered, and the record change goes after it.
    s.outbox.setWorkOffline(false);
    s.outbox.retry();
    for (let i = 0; i < 500 && s.outbox.status().total > 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(s.outbox.list()).toEqual([]);
    expect((await s.serverRecord(record)).cf_category).toBe('Renamed, answer lost');
  });

  it('may be discarded once the replay found the option renamed on the service (its fate known)', async () => {
    const { s, chosen, change, configOps, loseAnswers } = await setUp();
    change({ rename: [{ id: chosen.id, name: 'Mine' }] });
    // The service applies the rename; its answer is lost, so it is uncertain here.
    await loseAnswers('PATCH');
    expect(configOps()[0]).toMatchObject({ uncertain: true });
    // Someone renames it again on the service; the retry reads the options and refuses in words:
    // what the service has is known now.
    const body = configOps()[0]!.config!.request.body as { module: string; field: string };
    const renamed = await s.call('PATCH', `/portal/${s.portalId}/settings/options`, {
      module: body.module,
      field: body.field,
      custom_options: [{ id: chosen.id, value: 'Theirs' }],
    });
    expect(renamed.status).toBe(200);
    s.outbox.setWorkOffline(false);
    s.outbox.retry();
    await s.outbox.idle();
    const [refused] = configOps();
    expect(refused).toMatchObject({ state: 'failed', uncertain: false });
    expect(refused!.error).toMatch(/renamed to “Theirs” on the service meanwhile/);
    s.outbox.discard(refused!.id);
    expect(configOps()).toEqual([]);
  });
});

describe('an option removal whose answer was lost', () => {
  it('is not discarded until the service was asked', async () => {
    const { s, chosen, change, configOps, loseAnswers } = await setUp();
    change({ remove: [chosen.id] });
    await loseAnswers('DELETE');
    const [removal] = configOps();
    expect(removal).toMatchObject({ state: 'pending', uncertain: true });
    expect(() => s.outbox.discard(removal!.id)).toThrow(
      /answer was lost.*may already have removed .*Nothing was discarded/s,
    );
    expect(configOps().map((entry) => entry.id)).toEqual([removal!.id]);
  });
});
