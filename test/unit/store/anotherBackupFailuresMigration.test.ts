import { describe, expect, it } from 'vitest';
import { ANOTHER_BACKUP_REMOVED } from '../../../src/main/backups/backupJob';
import { BackupRepository } from '../../../src/main/backups/backupRepository';
import { storeBeforeMigration } from '../../support/storeBeforeMigration';

const NAME = '0030_another_backup_failures.sql';

describe(`migration ${NAME}`, () => {
  it("gives backups that failed on another backup's archive their kind and today's advice, and leaves the others", () => {
    const { old, migrated } = storeBeforeMigration(NAME);
    const insert = old.db.prepare(
      `INSERT INTO backups (id, account_id, portal_id, export_id, stage, created_at, problem, failure)
       VALUES (?, 'acc', '1', ?, ?, '2026-03-01T00:00:00.000Z', ?, ?)`,
    );
    const other =
      "The downloaded archive is backup e0, not e1: the service's link gave another backup's file.";
    insert.run(1, 'e1', 'failed', `${other} It was removed; download it again.`, 'retry');
    insert.run(
      2,
      'e2',
      'failed',
      'The backup is damaged: … The damaged download was removed; download it again.',
      'retry',
    );
    insert.run(3, 'e3', 'ready', null, null);
    old.close();

    const store = migrated();
    const repo = new BackupRepository(store.db);
    const [first, damaged, ready] = ['1', '2', '3'].map((id) => repo.get(id)!);
    expect(first!.failure).toBe('another_backup');
    expect(first!.problem).toBe(`${other} ${ANOTHER_BACKUP_REMOVED}`);
    expect(damaged!.failure).toBe('retry');
    expect(damaged!.problem).toContain('download it again');
    expect(ready!.failure).toBeNull();
    store.close();
  });
});
