import { describe, expect, it } from 'vitest';
import { BudgetStore, type StoredBudget } from '../../../src/main/api/budgetStore';
import { Store } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';
import { openBudgetDb } from './fakeApi';

const t = Date.UTC(2025, 0, 6, 9, 0, 0);

function budget(overrides: Partial<StoredBudget> = {}): StoredBudget {
  return {
    key: 'us GET /api/v3/portal/{portal_id}/entities portal=1',
    limit: 200,
    windowMs: 120_000,
    sends: [t - 90_000, t - 1_000, t - 1_000],
    blockedUntil: null,
    updatedAt: t,
    ...overrides,
  };
}

describe('BudgetStore', () => {
  it('gives back what was saved, across a reopen', () => {
    const file = `${tempDir()}/budgets.sqlite`;
    const db = openBudgetDb(file);
    new BudgetStore(db).save([
      budget(),
      budget({ key: 'b', blockedUntil: t + 600_000, sends: [] }),
    ]);
    db.close();
    const again = openBudgetDb(file);
    const loaded = new BudgetStore(again).load(t + 5);
    again.close();
    expect(loaded.sort((a, b) => (a.key < b.key ? -1 : 1))).toEqual([
      budget({ key: 'b', blockedUntil: t + 600_000, sends: [] }),
      budget(),
    ]);
  });

  it('rounds times so that a restored call never leaves the window earlier than the real one', () => {
    const db = openBudgetDb(`${tempDir()}/budgets.sqlite`);
    const store = new BudgetStore(db);
    store.save([
      budget({ sends: [t - 1_000.75, t - 0.25], updatedAt: t + 0.5, blockedUntil: t + 0.5 }),
    ]);
    const [loaded] = store.load(t + 10);
    expect(loaded?.sends[0]).toBeGreaterThanOrEqual(t - 1_000.75);
    expect(loaded?.sends[1]).toBeGreaterThanOrEqual(t - 0.25);
    expect(loaded?.blockedUntil).toBeGreaterThanOrEqual(t + 0.5);
    // Stored compactly: milliseconds before updated_at, not 13-digit timestamps.
    const row = db.prepare('SELECT sends_before_ms AS s FROM request_budgets').get() as {
      s: string;
    };
    expect(row.s).toBe('[1001,1]');
    db.close();
  });

  it('moves times back with a clock that was set back, instead of holding the endpoint closed', () => {
    const db = openBudgetDb(`${tempDir()}/budgets.sqlite`);
    const store = new BudgetStore(db);
    store.save([budget({ blockedUntil: t + 600_000 })]);
    const hourEarlier = t - 3_600_000;
    const [loaded] = store.load(hourEarlier);
    expect(loaded).toMatchObject({
      sends: [hourEarlier - 90_000, hourEarlier - 1_000, hourEarlier - 1_000],
      blockedUntil: hourEarlier + 600_000,
      updatedAt: hourEarlier,
    });
    db.close();
  });

  it('leaves out a row it cannot read', () => {
    const db = openBudgetDb(`${tempDir()}/budgets.sqlite`);
    const store = new BudgetStore(db);
    store.save([budget()]);
    db.prepare(
      `INSERT INTO request_budgets (key, limit_calls, window_ms, sends_before_ms, blocked_until, updated_at)
       VALUES ('broken', 200, 120000, '{"not":"a list"}', NULL, ?)`,
    ).run(t);
    expect(store.load(t).map((row) => row.key)).toEqual([budget().key]);
    db.close();
  });

  it('has its table created by the app’s migrations', () => {
    const store = Store.open({ dataDir: tempDir(), mode: 'test' });
    try {
      new BudgetStore(store.db).save([budget()]);
      expect(new BudgetStore(store.db).load(t)).toEqual([budget()]);
    } finally {
      store.close();
    }
  });
});
