-- Backups that failed before the kind `another_backup` (src/shared/ipc/areas/backups.ts): the
-- service's link gave another backup's archive. They were stopped as `retry`, with words saying
-- to download again, which fetches the same wrong file. Their kind is read from those words
-- (src/main/backups/archiveVerify.ts, anotherBackupProblem: the only record of it), and their
-- advice becomes today's (src/main/backups/backupJob.ts, ANOTHER_BACKUP_REMOVED).
UPDATE backups
SET failure = 'another_backup',
    problem = replace(
      problem,
      'It was removed; download it again.',
      'It was removed, and nothing was replaced: the backups already here are as they were. Downloading it again would fetch the same file from the service: make a new backup instead, and if that one brings another backup''s file too, report it to the service''s support.'
    )
WHERE stage = 'failed' AND problem LIKE 'The downloaded archive is backup %';
