import { describe, expect, it } from 'vitest';
import { NOT_A_BACKUP } from '../../../src/main/backups/archiveLimits';
import { BackupRepository } from '../../../src/main/backups/backupRepository';
import { storeBeforeMigration } from '../../support/storeBeforeMigration';

const NAME = '0028_backup_failures.sql';

describe(`migration ${NAME}`, () => {
  it('gives backups that failed before it their kind, read from the words they stopped with', () => {
    const { old, migrated } = storeBeforeMigration(NAME);
    const insert = old.db.prepare(
      `INSERT INTO backups (id, account_id, portal_id, export_id, stage, created_at, problem)
       VALUES (?, 'acc', '1', ?, ?, '2026-03-01T00:00:00.000Z', ?)`,
    );
    insert.run(1, 'e1', 'failed', `${NOT_A_BACKUP}: its entry entities.json declares … bytes.`);
    insert.run(
      2,
      'e2',
      'failed',
      'The backup is damaged: … The damaged download was removed; download it again.',
    );
    insert.run(3, 'e3', 'failed', "The service no longer offers this backup's download (gone). …");
    insert.run(4, 'e4', 'failed', 'The service no longer knows this backup: not found');
    insert.run(5, 'e5', 'ready', null);
    old.close();

    const store = migrated();
    const repo = new BackupRepository(store.db);
    expect(['1', '2', '3', '4', '5'].map((id) => repo.get(id)!.failure)).toEqual([
      'not_a_backup',
      'retry',
      'gone',
      'gone',
      null,
    ]);
    const raw = store.db.prepare('SELECT failure FROM backups WHERE id = 5').get();
    expect(raw).toEqual({ failure: null });
    store.close();
  });
});
