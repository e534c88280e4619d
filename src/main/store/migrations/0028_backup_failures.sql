-- The kind of failure of a failed backup (src/shared/ipc/areas/backups.ts BackupFailure), so the
-- Backups view offers what fits it: a file that is not a backup is not offered for download again
-- (it would fetch the same file), a download cut short is. NULL while not failed.
ALTER TABLE backups ADD COLUMN failure TEXT;

-- Backups that failed before this column: their kind read from the words they were stopped with
-- (src/main/backups/backupJob.ts, backupService.ts condemn), the only record of it.
UPDATE backups SET failure = CASE
    WHEN problem LIKE 'This file is not a backup PortalDesk can read%' THEN 'not_a_backup'
    WHEN problem LIKE 'The service no longer offers this backup''s download%'
      OR problem LIKE 'The service no longer knows this backup%'
      OR problem LIKE 'The service reports the backup as %' THEN 'gone'
    ELSE 'retry'
  END
WHERE stage = 'failed';
