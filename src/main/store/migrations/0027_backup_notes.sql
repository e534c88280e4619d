-- What a user's own request left on a backup (a cancelled verification, a paused download), said
-- as a neutral note beside its stage: unlike `problem`, nothing went wrong (src/main/backups/).
-- Any change of stage, answer, verification or file clears it.
ALTER TABLE backups ADD COLUMN note TEXT;
