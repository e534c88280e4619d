import { describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../../src/main/engine';
import { testEngine } from '../../support/engine';
import { record, PORTAL, MODULE } from '../records/workspace';

const origin = { transport: 'internal' as const, trusted: true, description: 'test' };
const DOC = 'https://docs.example.com/assets/42';
/** The record holding DOC; record 2 holds another address. */
const HOLDER = record(1, { custom: { cf_manual: DOC } });
const RECORD = HOLDER.id;

function engineWithLink(opened: (url: string) => Promise<unknown>): Engine {
  const engine = testEngine({ openExternal: opened, autoSync: false });
  engine.mirror.metadata.upsertPortals([
    {
      id: PORTAL,
      accountId: 'acc-1',
      dc: 'us',
      name: 'northwind',
      orgName: null,
      timeZone: 'UTC',
      weekStartDay: null,
      isDefault: true,
      details: {},
    },
  ]);
  engine.mirror.metadata.replaceModules(PORTAL, [
    {
      id: MODULE,
      apiName: 'assets',
      singularName: 'Asset',
      pluralName: 'Assets',
      iconClass: null,
      isActive: true,
      isDefault: false,
      createdTime: null,
      details: {},
    },
  ]);
  engine.mirror.records.upsertRecords([
    HOLDER,
    record(2, { custom: { cf_manual: 'https://docs.example.com/assets/43' } }),
  ]);
  return engine;
}

describe('app.openLink', () => {
  it("opens a URL that one of the portal's records holds, in the system browser", async () => {
    const opened = vi.fn(async () => true);
    const engine = engineWithLink(opened);
    const outcome = await engine.dispatcher.dispatch(
      'app.openLink',
      { portalId: PORTAL, recordId: RECORD, url: DOC },
      origin,
    );
    expect(outcome).toEqual({ ok: true, value: { opened: true } });
    expect(opened).toHaveBeenCalledWith(DOC);
  });

  it('refuses anything else and opens nothing', async () => {
    const opened = vi.fn(async () => true);
    const engine = engineWithLink(opened);
    for (const [url, reason] of [
      ['https://evil.example/phish', /not a value of record/],
      ['javascript:alert(1)', /Only http and https/],
      ['https://user:pw@docs.example.com/assets/42', /Only http and https/],
      ['not a url', /not a web address/],
    ] as const) {
      const outcome = await engine.dispatcher.dispatch(
        'app.openLink',
        { portalId: PORTAL, recordId: RECORD, url },
        origin,
      );
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.message).toMatch(reason);
    }
    // Another record's address is not this one's, even in the same module.
    const elsewhere = await engine.dispatcher.dispatch(
      'app.openLink',
      { portalId: PORTAL, recordId: RECORD, url: 'https://docs.example.com/assets/43' },
      origin,
    );
    expect(elsewhere.ok).toBe(false);
    if (!elsewhere.ok) expect(elsewhere.error.message).toMatch(/not a value of record/);
    // The same URL in another portal's mirror is not this portal's.
    const other = await engine.dispatcher.dispatch(
      'app.openLink',
      { portalId: '999', recordId: RECORD, url: DOC },
      origin,
    );
    expect(other.ok).toBe(false);
    expect(opened).not.toHaveBeenCalled();
  });

  it("opens an address as the record writes it, in the standard form the link's href shows", async () => {
    const opened = vi.fn(async () => true);
    const engine = engineWithLink(opened);
    const written = 'HTTPS://Docs.Example.com';
    engine.mirror.records.upsertRecords([record(3, { custom: { cf_manual: written } })]);
    const outcome = await engine.dispatcher.dispatch(
      'app.openLink',
      { portalId: PORTAL, recordId: record(3).id, url: written },
      origin,
    );
    expect(outcome).toEqual({ ok: true, value: { opened: true } });
    expect(opened).toHaveBeenCalledWith('https://docs.example.com/');
  });

  it('says so when no browser could be started', async () => {
    const engine = engineWithLink(async () => false);
    const outcome = await engine.dispatcher.dispatch(
      'app.openLink',
      { portalId: PORTAL, recordId: RECORD, url: DOC },
      origin,
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(/open .* yourself/);
  });
});
