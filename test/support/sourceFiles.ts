/**
 * The project's own source, read as text by the tests that hold a rule over all of it (import
 * loops, one writer per table, partial indexes).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Every file below `dir` whose name ends with one of `extensions`, except in `skip` folders. */
export function sourceFiles(
  dir: string,
  extensions: readonly string[],
  skip: readonly string[] = [],
): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory())
      return skip.includes(entry.name) ? [] : sourceFiles(file, extensions, skip);
    return extensions.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts')
      ? [file]
      : [];
  });
}

/**
 * `text` with its comment lines blanked (`--`, `//`, `/*` and ` * ` lines), line breaks kept so
 * line numbers still hold: a comment that names a statement is not one.
 */
export function withoutCommentLines(text: string): string {
  return text.replace(/^\s*(?:\*|\/\/|\/\*|--).*$/gm, '');
}
