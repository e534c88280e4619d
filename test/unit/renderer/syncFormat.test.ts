import { describe, expect, it } from 'vitest';
import type { EndpointBudget, SyncStatus } from '../../../src/shared/ipc/areas/sync';
import {
  budgetState,
  describeEndpoint,
  formatAgo,
  formatDuration,
  moduleRows,
  progressPercent,
  runProblems,
  syncSummary,
} from '../../../src/renderer/src/features/sync/syncFormat';

const NOW = 1_800_000_000_000;

function status(partial: Partial<SyncStatus> = {}): SyncStatus {
  return {
    paused: false,
    online: true,
    accounts: [{ accountId: 'a', dc: 'us', label: 'admin' }],
    running: [],
    progress: [],
    budgets: [],
    lastSynced: [],
    log: [],
    nextAutoSyncAt: null,
    at: NOW,
    ...partial,
  };
}

function budget(partial: Partial<EndpointBudget>): EndpointBudget {
  return {
    key: 'us GET /api/v3/portals',
    limit: 200,
    windowMs: 120_000,
    spent: 0,
    remaining: 190,
    nextSlotAt: NOW,
    blockedUntil: null,
    queued: 0,
    inFlight: 0,
    calls: { stepMs: 10_000, inWindow: [], current: 0, previous: 0 },
    ...partial,
  };
}

describe('sync wording', () => {
  it('writes durations rounded up to seconds, then minutes, then hours', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(1)).toBe('1 s');
    expect(formatDuration(59_001)).toBe('1 min');
    expect(formatDuration(200_000)).toBe('3 min 20 s');
    expect(formatDuration(3_900_000)).toBe('1 h 5 min');
    expect(formatDuration(-5)).toBe('0 s');
  });

  it('says how long ago', () => {
    expect(formatAgo(NOW - 10_000, NOW)).toBe('just now');
    expect(formatAgo(NOW - 5 * 60_000, NOW)).toBe('5 min ago');
    expect(formatAgo(NOW - 3 * 3_600_000, NOW)).toBe('3 h ago');
    expect(formatAgo(NOW - 2 * 86_400_000, NOW)).toBe('2 days ago');
  });

  it('gives a percentage only once the total is known', () => {
    expect(progressPercent(5, null)).toBeNull();
    expect(progressPercent(50, 200)).toBe(25);
    expect(progressPercent(0, 0)).toBe(100);
    expect(progressPercent(300, 200)).toBe(100);
  });

  it('splits an endpoint key into data center, route and portal name', () => {
    expect(
      describeEndpoint('eu GET /api/v3/portal/{portal_id}/bin portal=123', (id) =>
        id === '123' ? 'Northwind' : undefined,
      ),
    ).toEqual({ dc: 'eu', route: 'GET /api/v3/portal/{portal_id}/bin', portal: 'Northwind' });
    expect(describeEndpoint('us GET /api/v3/portals', () => undefined)).toEqual({
      dc: 'us',
      route: 'GET /api/v3/portals',
      portal: null,
    });
    // The comments path holds a space (the spec's literal segment): still one route.
    expect(
      describeEndpoint(
        'us GET /api/v3/portal/{portal_id}/{module_api_name}/entity/{entity_id}/record comments portal=154',
        () => 'acme',
      ),
    ).toEqual({
      dc: 'us',
      route: 'GET /api/v3/portal/{portal_id}/{module_api_name}/entity/{entity_id}/record comments',
      portal: 'acme',
    });
  });

  it('says when the next call of an endpoint may go', () => {
    expect(budgetState(budget({}), NOW)).toBe('Free now');
    expect(budgetState(budget({ remaining: 0, nextSlotAt: NOW + 42_000 }), NOW)).toBe(
      'Next slot in 42 s',
    );
    expect(budgetState(budget({ remaining: 0, nextSlotAt: null }), NOW)).toBe(
      'Waiting for an answer',
    );
    expect(budgetState(budget({ remaining: 0, blockedUntil: NOW + 600_000 }), NOW)).toBe(
      'Blocked by the service for 10 min',
    );
  });

  it('sums the running modules into one percentage for the status bar', () => {
    const run = {
      runId: 'r1',
      accountId: 'a',
      dc: 'us',
      startedAt: NOW,
      endedAt: null,
      state: 'running' as const,
      message: null,
      calls: 0,
      records: 0,
      outcomes: [],
    };
    const row = (moduleId: string, done: number, total: number | null) => ({
      runId: 'r1',
      accountId: 'a',
      dc: 'us',
      portalId: '1',
      moduleId,
      module: moduleId,
      phase: 'records' as const,
      done,
      total,
      calls: 1,
      skipped: 0,
      etaMs: null,
      message: null,
      at: NOW,
    });
    expect(
      syncSummary(
        status({ running: [run], progress: [row('m1', 50, 100), row('m2', 0, 100)] }),
        NOW,
      ),
    ).toBe('Syncing 25%');
    expect(syncSummary(status({ running: [run], progress: [row('m1', 5, null)] }), NOW)).toBe(
      'Syncing…',
    );
    expect(syncSummary(status({ running: [run], paused: true }), NOW)).toBe('Sync paused…');
    expect(
      syncSummary(
        status({ lastSynced: [{ portalId: '1', moduleId: 'm', at: NOW - 600_000 }] }),
        NOW,
      ),
    ).toBe('Synced 10 min ago');
    expect(syncSummary(status(), NOW)).toBe('Not synced yet');
    expect(syncSummary(null, NOW)).toBe('Sync: …');
  });

  it("explains a run's failures, the run's own message first", () => {
    expect(
      runProblems({
        runId: 'r',
        accountId: 'a',
        dc: 'us',
        startedAt: NOW,
        endedAt: NOW,
        state: 'failed',
        message: 'Some modules could not be pulled.',
        calls: 3,
        records: 0,
        outcomes: [
          { portalId: '1', moduleId: 'm', ok: false, message: 'The service refused: no access.' },
          { portalId: '1', moduleId: null, ok: true, message: null },
        ],
      }),
    ).toEqual(['Some modules could not be pulled.', 'The service refused: no access.']);
  });
});

describe("the Sync view's module rows", () => {
  it('are named by the mirror when no run reports on them (after a restart), never by a bare id', () => {
    const rows = moduleRows(
      status({ lastSynced: [{ portalId: 'p1', moduleId: '1000000000101', at: NOW }] }),
      { 'p1/1000000000101': 'Assets' },
    );
    expect(rows.get('p1')?.map((row) => row.module)).toEqual(['Assets']);
    const unnamed = moduleRows(
      status({ lastSynced: [{ portalId: 'p1', moduleId: '1000000000102', at: NOW }] }),
      {},
    );
    expect(unnamed.get('p1')?.[0]?.module).toBe('Module 1000000000102');
  });
});
