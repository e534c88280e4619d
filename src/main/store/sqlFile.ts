/**
 * Parses a `.sql` file of named statements:
 *
 *     -- name: upsert
 *     INSERT INTO ...;
 *
 * so SQL lives in `.sql` files (readable, highlightable, greppable) and code refers to it by name.
 */
export function parseNamedQueries(text: string, fileLabel = 'SQL file'): Record<string, string> {
  const queries: Record<string, string> = {};
  let current: string | null = null;
  let lines: string[] = [];
  const finish = (): void => {
    if (current === null) return;
    const sql = lines.join('\n').trim();
    if (sql === '') throw new Error(`${fileLabel}: query "${current}" is empty.`);
    queries[current] = sql;
  };
  for (const line of text.split(/\r?\n/)) {
    const header = /^--\s*name:\s*([A-Za-z][A-Za-z0-9_]*)\s*$/.exec(line);
    if (header) {
      finish();
      const name = header[1] as string;
      if (Object.hasOwn(queries, name)) {
        throw new Error(`${fileLabel}: query "${name}" is defined twice.`);
      }
      current = name;
      lines = [];
    } else if (current !== null) {
      lines.push(line);
    } else if (line.trim() !== '' && !line.trim().startsWith('--')) {
      throw new Error(`${fileLabel}: SQL before the first "-- name:" header.`);
    }
  }
  finish();
  return queries;
}

/** Picks the named queries a module needs, failing at start-up (not at first use) if one is missing. */
export function requireQueries<K extends string>(
  queries: Record<string, string>,
  names: readonly K[],
  fileLabel = 'SQL file',
): Record<K, string> {
  const picked = {} as Record<K, string>;
  for (const name of names) {
    const sql = queries[name];
    if (sql === undefined) throw new Error(`${fileLabel}: no query named "${name}".`);
    picked[name] = sql;
  }
  return picked;
}
