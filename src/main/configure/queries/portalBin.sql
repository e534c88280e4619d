-- A portal's recycle bin as last read (migration 0013_portal_bin.sql):
-- src/main/configure/portalBinRepository.ts.

-- name: clear
DELETE FROM portal_bin_items WHERE portal_id = ?;

-- name: insert
INSERT INTO portal_bin_items (portal_id, id, module, name, item)
VALUES (@portalId, @id, @module, @name, @item)
ON CONFLICT (portal_id, module, id) DO UPDATE SET name = excluded.name, item = excluded.item;

-- name: markRead
INSERT INTO portal_bin_reads (portal_id, read_at) VALUES (?, ?)
ON CONFLICT (portal_id) DO UPDATE SET read_at = excluded.read_at;

-- name: readAt
SELECT read_at FROM portal_bin_reads WHERE portal_id = ?;

-- name: items
SELECT item FROM portal_bin_items WHERE portal_id = ? ORDER BY module, id;

-- name: remove
DELETE FROM portal_bin_items WHERE portal_id = ? AND module = ? AND id = ?;
