/**
 * One writer per table: every statement that inserts into, updates or deletes from a table of the
 * app's store is written in one folder, the folder of the code that owns the table (the mirror's
 * tables in src/main/store, the outbox's in src/main/outbox, ...). Another area that needs to
 * change a table calls its owner (the outbox writes the mirror's records through
 * store/mirror/localEditsRepository.ts). Migrations are the schema, not writers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/main/store/store';
import { sourceFiles, withoutCommentLines } from '../../support/sourceFiles';
import { tempDir } from '../../support/tempDir';

const MAIN = path.join(process.cwd(), 'src', 'main');

/** The tables `text` writes, by the statement keywords that write. */
function writtenTables(text: string): string[] {
  const writes =
    /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+([A-Za-z_]\w*)/gi;
  return [...text.matchAll(writes)].map((match) => (match[1] as string).toLowerCase());
}

/** The folder (under src/main) that owns a file: `store`, `outbox`, `router`, ... */
function area(file: string): string {
  return path.relative(MAIN, file).split(path.sep)[0] as string;
}

describe('the tables of the store', () => {
  it('each have their writes in one area of src/main', () => {
    const store = Store.open({ dataDir: tempDir('portaldesk-owners-'), mode: 'test' });
    let tables: Set<string>;
    try {
      tables = new Set(
        (
          store.db
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
            .pluck()
            .all() as string[]
        ).map((name) => name.toLowerCase()),
      );
    } finally {
      store.close();
    }
    const writers = new Map<string, Set<string>>();
    for (const file of sourceFiles(MAIN, ['.sql', '.ts'], ['migrations'])) {
      for (const table of writtenTables(withoutCommentLines(readFileSync(file, 'utf8')))) {
        if (!tables.has(table)) continue;
        const areas = writers.get(table) ?? new Set<string>();
        areas.add(area(file));
        writers.set(table, areas);
      }
    }
    // The tables this test was written against, so a change of the scan cannot make it vacuous.
    expect([...writers.keys()]).toEqual(
      expect.arrayContaining(['records', 'record_edits', 'comments', 'outbox_ops', 'accounts']),
    );
    const shared = [...writers]
      .filter(([, areas]) => areas.size > 1)
      .map(([table, areas]) => `${table}: ${[...areas].sort().join(', ')}`);
    expect(shared).toEqual([]);
    expect([...(writers.get('records') ?? [])]).toEqual(['store']);
  });

  it('are found by the scan however a write is spelt', () => {
    expect(
      writtenTables(
        'INSERT OR REPLACE INTO a (x) VALUES (1); update b set x = 1; DELETE FROM c; REPLACE INTO d',
      ),
    ).toEqual(['a', 'b', 'c', 'd']);
    // A comment that says "update comments" writes nothing.
    expect(
      writtenTables(
        withoutCommentLines(' * then update comments\n-- delete from records\nUPDATE e SET x = 1'),
      ),
    ).toEqual(['e']);
  });
});
