-- A full pull resumes where its scan stood, not at a page number (issue 14): records trashed on
-- pages already stored shift the later ones onto those pages, and a pull going on by page number
-- never reads them. The pull now reads in id order by windows that overlap by one record
-- (src/main/sync/scanWindow.ts). scan_index: the 1-based position where the record scan_after
-- (the greatest id stored by the pull) stood when read; both NULL when no full pull is running.
ALTER TABLE sync_cursors ADD COLUMN scan_index INTEGER CHECK (scan_index IS NULL OR scan_index >= 1);
ALTER TABLE sync_cursors ADD COLUMN scan_after TEXT;

-- A pull interrupted before this version starts its scan over: the page it stood at says nothing
-- about ids. Its stored records are upserted again (unchanged ones cost nothing).
UPDATE sync_cursors SET scan_index = 1 WHERE next_page IS NOT NULL;
ALTER TABLE sync_cursors DROP COLUMN next_page;
