-- Links the app may open (src/main/handlers/linkHandlers.ts).

-- name: mirroredLink
-- Is this text (a JSON string, quotes included) a value in one of the portal's records? The
-- custom fields are JSON by api_name, so a URL field's value appears there exactly so encoded.
SELECT EXISTS (SELECT 1 FROM records WHERE portal_id = ? AND instr(custom, ?) > 0);
