/**
 * Access to a module lost while its records are compared (the service answers 403 or 404 part way
 * through the listing): nothing mirrored of it is removed on the strength of a listing that did
 * not end, and the sync says in words which part failed.
 */
import { describe, expect, it } from 'vitest';
import { syncSession } from './syncSession';

const MODULE = 'assets';

describe('a module whose listing is refused part way through', () => {
  for (const status of [403, 404]) {
    it(`keeps every mirrored record of it on a ${status}`, async () => {
      let refuse = false;
      const s = await syncSession({
        engine: { pageSize: 10 },
        client: {
          fetch: async (input, init) => {
            const url = new URL(String(input));
            const later = Number(url.searchParams.get('index') ?? 1) > 1;
            if (refuse && later && url.pathname.endsWith(`/${MODULE}/entities`)) {
              const body = {
                errorCode: status === 403 ? 'FORBIDDEN' : 'RESOURCE_NOT_FOUND',
                message: 'No access to this module.',
                status,
              };
              return new Response(JSON.stringify(body), {
                status,
                headers: { 'content-type': 'application/json' },
              });
            }
            return fetch(input, init);
          },
        },
      });
      const portalId = s.emulator.portals[0]!;
      expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
      const before = s.mirroredIds(portalId);
      expect(before.get(MODULE)!.length).toBeGreaterThan(10);
      refuse = true;
      const result = await s.engine.syncAccount(s.account, { reconcile: true }).done;
      expect(result.state).not.toBe('done');
      const failed = result.outcomes.filter((o) => !o.ok);
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.every((o) => (o.message ?? '').length > 0)).toBe(true);
      expect(s.mirroredIds(portalId)).toEqual(before);
    });
  }
});
