/**
 * The rule for partial indexes (src/main/store/migrations/README.md): a partial index's condition
 * may name only a column, or a form of one, that no statement compares with a bound parameter.
 *
 * SQLite re-prepares a cached statement after a schema change using the values bound at that
 * moment; a statement binding `c = ?` with the value of an index's `WHERE c = v` can then be
 * answered from that index for every later value (SQLite 3.53.2, issue 14: empty lists). This test
 * reads every partial index of a fully migrated store, one custom-field index among them, and
 * looks for statements in the app's sources that compare what its condition names with a
 * parameter. A hit names the statement's file and line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { customFieldIndexDefinition } from '../../../src/main/store/mirror/customFieldIndexDefinition';
import { Store } from '../../../src/main/store/store';
import { sourceFiles, withoutCommentLines } from '../../support/sourceFiles';
import { tempDir } from '../../support/tempDir';

const SOURCES = path.join(process.cwd(), 'src', 'main');

/** The terms a partial index's condition compares: `local_only`, `+module_key`, ... */
function conditionTerms(createIndexSql: string): string[] {
  const where = /\bWHERE\b([\s\S]*)$/i.exec(createIndexSql)?.[1] ?? '';
  return where
    .split(/\b(?:AND|OR)\b/i)
    .flatMap((conjunct) => {
      const term = /^\s*\(?\s*(\+?\s*[A-Za-z_][\w]*)/.exec(conjunct)?.[1];
      return term ? [term.replace(/\s+/g, '')] : [];
    })
    .filter((term, i, all) => all.indexOf(term) === i);
}

const COMPARISON = String.raw`(?:==?|<>|!=|<=?|>=?|\bIS(?:\s+NOT)?\b|(?:\bNOT\s+)?\bIN\b)`;
/** A bound parameter of SQLite: ?, ?NNN, :name, @name, $name (not a template's `${`). */
const PARAMETER = String.raw`(?:\?|[:@][A-Za-z_]|\$[A-Za-z_])`;

/** Where `text` compares `term` with a parameter, outside SET assignments; 1-based lines. */
function boundComparisons(text: string, term: string): number[] {
  const plus = term.startsWith('+');
  const column = term.replace(/^\+/, '');
  // A plain column must not be written with a plus (that is another term); a plus term must be.
  const left = plus
    ? String.raw`\+\s*(?:\w+\.)?${column}`
    : String.raw`(?<!\+\s*(?:\w+\.)?)(?:\w+\.)?\b${column}\b`;
  const compared = new RegExp(
    String.raw`${left}\s*${COMPARISON}\s*\(?\s*${PARAMETER}|${PARAMETER}\w*\s*${COMPARISON}\s*${plus ? String.raw`\+\s*` : ''}(?:\w+\.)?\b${column}\b`,
    'gi',
  );
  // `UPDATE ... SET c = ?` assigns; it compares nothing. Blank the assignments and comment lines,
  // keep line breaks.
  const code = withoutCommentLines(text);
  const scanned = code.replace(/\bSET\b[\s\S]*?(?=\bWHERE\b|;|`|$)/gi, (set) =>
    set.replace(/[^\n]/g, ' '),
  );
  const lines: number[] = [];
  for (const match of scanned.matchAll(compared)) {
    lines.push(scanned.slice(0, match.index).split('\n').length);
  }
  return lines;
}

describe('partial indexes', () => {
  it('name nothing that a statement of the app binds', () => {
    const store = Store.open({ dataDir: tempDir('portaldesk-partial-'), mode: 'test' });
    try {
      store.db.exec(customFieldIndexDefinition(1, "json_extract(r.custom, '$.cf_a')").sql);
      const partial = store.db
        .prepare(
          "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql LIKE '% WHERE %'",
        )
        .all() as { name: string; sql: string }[];
      // The ones this test was written against, so a rename cannot make it look at nothing.
      expect(partial.map((index) => index.name)).toEqual(
        expect.arrayContaining(['records_local_only', 'accounts_one_active']),
      );
      const files = sourceFiles(SOURCES, ['.sql', '.ts']).map((file) => ({
        file: path.relative(process.cwd(), file),
        text: readFileSync(file, 'utf8'),
      }));
      const hits = partial.flatMap((index) =>
        conditionTerms(index.sql).flatMap((term) =>
          files.flatMap(({ file, text }) =>
            boundComparisons(text, term).map(
              (line) => `${index.name}: ${term} bound at ${file}:${line}`,
            ),
          ),
        ),
      );
      expect(hits).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('and the scan finds such statements where they are', () => {
    expect(conditionTerms('CREATE INDEX x ON t (a) WHERE local_only = 1')).toEqual(['local_only']);
    expect(conditionTerms('CREATE INDEX x ON t (a) WHERE +module_key = 7')).toEqual([
      '+module_key',
    ]);
    expect(
      conditionTerms("CREATE INDEX x ON t (a) WHERE status IN ('a', 'b') AND (kind = 2)"),
    ).toEqual(['status', 'kind']);
    const sql = [
      'SELECT count(*) FROM records WHERE module_key = ? AND list_state IN (0, 1);',
      'DELETE FROM records WHERE r.local_only = @local AND x = 1;',
      'UPDATE records SET local_only = ?, module_key = :key WHERE id = ?;',
      'const s = `SELECT 1 FROM records r WHERE +r.module_key = ${moduleKey}`;',
      'SELECT 1 FROM records r WHERE +r.module_key = ? OR ? = +module_key;',
      'SELECT 1 FROM t WHERE overall_status = @status AND ? = active;',
      ' * A comment may say module_key = ? without being a statement.',
    ].join('\n');
    expect(boundComparisons(sql, 'module_key')).toEqual([1]);
    expect(boundComparisons(sql, 'local_only')).toEqual([2]);
    expect(boundComparisons(sql, '+module_key')).toEqual([5, 5]);
    expect(boundComparisons(sql, 'status')).toEqual([]);
    expect(boundComparisons(sql, 'active')).toEqual([6]);
  });
});
