import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFilter } from '@portaldesk/portal-api/filter';
import {
  backupAge,
  backupWarned,
  barPercent,
  blockedEndpoints,
  outboxScope,
  statusFilter,
  weeklySummary,
} from '../../../../src/renderer/src/features/overview/overviewFormat';
import {
  barShare,
  busyEndpoints,
  callsChartSummary,
} from '../../../../src/renderer/src/features/sync/endpointCharts';
import type { EndpointBudget } from '../../../../src/shared/ipc/areas/sync';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');

function budget(key: string, current: number, previous: number): EndpointBudget {
  return {
    key,
    limit: 200,
    windowMs: 120_000,
    spent: current,
    remaining: 200 - current,
    nextSlotAt: NOW,
    blockedUntil: null,
    queued: 0,
    inFlight: 0,
    calls: {
      stepMs: 10_000,
      inWindow: [...Array<number>(23).fill(previous), current],
      current,
      previous,
    },
  };
}

describe('overview wording and decisions', () => {
  it('opens a status as the filter language reads it, and "no status" as empty', () => {
    const is = parseFilter(statusFilter('2003'));
    expect(is.ok && is.filter.criteria[0]).toMatchObject({
      field_name: 'status',
      criteria_condition: 'is',
      value: ['2003'],
    });
    const empty = parseFilter(statusFilter(null));
    expect(empty.ok && empty.filter.criteria[0]).toMatchObject({
      criteria_condition: 'is_empty',
    });
  });

  it('draws bars against the longest, a non-empty one always visible', () => {
    expect(barPercent(0, 10)).toBe(0);
    expect(barPercent(10, 10)).toBe(100);
    expect(barPercent(1, 1_000_000)).toBe(1);
    expect(barPercent(5, 0)).toBe(0);
  });

  it('tells the last backup’s age and where it is kept', () => {
    expect(backupAge(null, NOW)).toBe('No backup of this portal yet.');
    const ready = { completedTime: '2026-11-20T10:00:00.000Z', stage: 'ready' };
    expect(backupAge(ready, NOW)).toMatch(/^Made 2 days ago .*downloaded and verified/);
    expect(backupAge({ ...ready, stage: 'on_service' }, NOW)).toMatch(/not downloaded here\.$/);
    expect(backupWarned(ready, null, NOW)).toBe(false);
    expect(backupWarned(null, null, NOW)).toBe(true);
  });

  it('says a failed attempt since the last backup, or instead of one, and warns', () => {
    const failure = { at: '2026-11-21T08:00:00.000Z', problem: 'The download was cut.' };
    expect(backupAge(null, NOW, failure)).toMatch(
      /^No backup of this portal yet: the attempt of .* failed \(The download was cut\.\)\. Open Backups to try again\.$/,
    );
    const ready = { completedTime: '2026-11-20T10:00:00.000Z', stage: 'ready' };
    expect(backupAge(ready, NOW, failure)).toMatch(
      /^Made 2 days ago .*verified on this computer\. A later attempt, .*, failed \(The download was cut\.\)\. Open Backups to try again\.$/,
    );
    expect(backupWarned(ready, failure, NOW)).toBe(true);
  });

  it('warns of a backup exactly when its age in words is past a week', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 * 86_400_000 }), (age) => {
        const backup = { completedTime: new Date(NOW - age).toISOString(), stage: 'ready' };
        const days = /Made (\d+) days? ago/.exec(backupAge(backup, NOW))?.[1];
        // Words in days say more than 7: warned; a warned backup never reads under a week.
        if (days !== undefined && Number(days) > 7)
          expect(backupWarned(backup, null, NOW)).toBe(true);
        if (backupWarned(backup, null, NOW)) expect(Number(days)).toBeGreaterThanOrEqual(7);
      }),
    );
  });

  it("says when the Outbox view lists other portals' changes beside this one's", () => {
    const outbox = { pending: 2, sending: 0, failed: 1, conflict: 0 };
    expect(outboxScope({ ...outbox, allPortals: 3 })).toBeNull();
    expect(outboxScope({ ...outbox, allPortals: 8 })).toBe(
      "The Outbox lists every portal's changes together: 8 in all, 3 of them this portal's.",
    );
    expect(outboxScope({ pending: 0, sending: 0, failed: 0, conflict: 0, allPortals: 1 })).toBe(
      "The Outbox lists every portal's changes together: 1 in all, none of them this portal's.",
    );
  });

  it('says which endpoints the service blocks, until when, and that their calls wait', () => {
    const key = 'us GET /api/v3/portal/{portal_id}/entities portal=1';
    const open = { ...budget(key, 3, 0), blockedUntil: null };
    const over = { ...open, blockedUntil: NOW - 1 };
    const blocked = { ...open, blockedUntil: NOW + 5 * 60_000 };
    expect(blockedEndpoints([open, over], NOW)).toEqual([]);
    expect(blockedEndpoints([open, blocked], NOW)).toEqual([
      `GET /api/v3/portal/{portal_id}/entities is blocked by the service until ${new Date(NOW + 5 * 60_000).toLocaleTimeString()} (about 5 min): its calls wait and go out when it reopens.`,
    ]);
  });

  it('sums the weeks and what lies before them', () => {
    const none = { created: 0, updated: 0 };
    expect(weeklySummary({ weeks: [], earlier: none, later: none })).toBe(
      'No records in the mirror yet.',
    );
    expect(
      weeklySummary({
        weeks: [
          { start: '2026-11-09', created: 2, updated: 1 },
          { start: '2026-11-16', created: 5, updated: 6 },
        ],
        earlier: { created: 3, updated: 3 },
        later: none,
      }),
    ).toBe(
      '2 weeks from 2026-11-09 to 2026-11-16: 10 records created, 10 last updated; most created in the week of 2026-11-16 (5). 3 created and 3 last updated before 2026-11-09 are not drawn.',
    );
    // A record dated after today that did not fit is counted, and said.
    expect(
      weeklySummary({
        weeks: [{ start: '2026-11-16', created: 5, updated: 6 }],
        earlier: none,
        later: { created: 1, updated: 0 },
      }),
    ).toBe(
      "1 week from 2026-11-16 to 2026-11-16: 6 records created, 6 last updated; most created in the week of 2026-11-16 (5). 1 created and 0 last updated after the week of 2026-11-16 (dated after this computer's date) are not drawn.",
    );
    // Nothing created in the weeks drawn: no "busiest" week of zero.
    expect(
      weeklySummary({
        weeks: [{ start: '2026-11-16', created: 0, updated: 2 }],
        earlier: { created: 4, updated: 0 },
        later: none,
      }),
    ).toBe(
      '1 week from 2026-11-16 to 2026-11-16: 4 records created, 2 last updated; none created in these weeks. 4 created and 0 last updated before 2026-11-16 are not drawn.',
    );
  });

  it('charts the busiest endpoints first and says each chart in words', () => {
    const quiet = budget('us GET /a portal=1', 0, 0);
    const busy = budget('us GET /b portal=1', 150, 200);
    const older = budget('us GET /c portal=1', 0, 40);
    expect(busyEndpoints([quiet, older, busy]).map((b) => b.key)).toEqual([busy.key, older.key]);
    expect(busyEndpoints([quiet, older, busy], 1)).toEqual([busy]);
    expect(callsChartSummary(busy)).toBe(
      '150 of 200 calls in the current 2 min window, 200 in the previous one; the most in any 2 min window shown: 200.',
    );
    expect(barShare(200, 200)).toBeCloseTo(0.9);
    expect(barShare(400, 200)).toBe(1);
  });
});
