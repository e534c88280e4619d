-- Links the app may open (src/main/handlers/linkHandlers.ts).

-- name: mirroredLink
-- Does this record hold this text (a JSON string, quotes included) in its custom fields? They are
-- JSON by api_name, so a URL field's value appears there exactly so encoded. One record by its
-- key: a scan of every record of the portal for each click cost 0.3 s at a million records.
SELECT EXISTS (SELECT 1 FROM records WHERE portal_id = ? AND id = ? AND instr(custom, ?) > 0);
