/**
 * The incremental filter names a day, which the service reads in the portal's time zone. When the
 * portal's list item and details leave `timezone` out, the day must still start no later than the
 * cursor wherever the service's zone is: taken in UTC, a cursor at 01:00 UTC named a day that in
 * New York starts at 05:00 UTC, and a change made between the two was never read (an edit leaves
 * the counts alike, so nothing else tells).
 */
import { describe, expect, it } from 'vitest';
import { syncSession } from './syncSession';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** A reply with `timezone` taken out of every portal object in it. */
async function withoutTimeZone(reply: Response): Promise<Response> {
  const type = reply.headers.get('content-type') ?? '';
  if (!type.includes('json')) return reply;
  const body = JSON.parse(await reply.text(), (key, value: unknown) =>
    key === 'timezone' ? undefined : value,
  ) as unknown;
  const headers = new Headers(reply.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: reply.status, headers });
}

describe('an incremental pull of a portal whose time zone is not reported', () => {
  it('reads a change made after the cursor but before the day the service reads starts', async () => {
    const s = await syncSession({
      emulator: { records: 100 },
      client: {
        fetch: async (input, init) => {
          const reply = await fetch(input, init);
          return /\/portal(s|\/\d+)$/.test(new URL(String(input)).pathname)
            ? withoutTimeZone(reply)
            : reply;
        },
      },
    });
    // The second portal is in America/New_York on the service.
    const portalId = s.emulator.portals[1]!;
    const zone = s.emulator.state.db
      .prepare('SELECT timezone FROM portals WHERE id = ?')
      .pluck()
      .get(Number(portalId));
    expect(zone).toBe('America/New_York');
    expect((await s.engine.syncPortal(s.account, portalId).done).state).toBe('done');
    const stored = s.store.db.prepare('SELECT timezone FROM portals WHERE id = ?').pluck();
    expect(stored.get(portalId)).toBe('UTC');

    const clock = s.emulator.state.clock;
    const at = async (utcHour: number) => {
      const now = clock.now();
      const target = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS + utcHour * HOUR_MS;
      await s.admin('POST', 'clock/advance', { ms: (target - now) % DAY_MS || DAY_MS });
    };
    const [first, second] = s.serverIds(portalId).get('vendors')!;
    const rename = async (id: string, name: string) => {
      const reply = await s.admin('POST', 'record-change', {
        portal_id: portalId,
        module: 'vendors',
        entity_id: id,
        changes: { name },
      });
      expect(reply.status).toBe(200);
    };
    // The cursor comes to 01:00 UTC; the next change is at 02:00 UTC (21:00 the day before there).
    await at(1);
    await rename(first!, 'Renamed at one');
    expect((await s.engine.syncPortal(s.account, portalId).done).state).toBe('done');
    await at(2);
    await rename(second!, 'Renamed at two');
    expect((await s.engine.syncPortal(s.account, portalId).done).state).toBe('done');
    const name = s.store.db.prepare('SELECT name FROM records WHERE id = ?').pluck();
    expect(name.get(first)).toBe('Renamed at one');
    expect(name.get(second)).toBe('Renamed at two');
  });
});
