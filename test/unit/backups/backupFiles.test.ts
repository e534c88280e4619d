/**
 * Where backups live on disk, and which stored paths are ours: only
 * `<digits>/<yyyymmddThhmmssZ>-<safe id>.zip` resolves, and always inside `<dataDir>/backups/`.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BACKUPS_FOLDER,
  PART_SUFFIX,
  backupRelativePath,
  compactTimestamp,
  downloadUrlProblem,
  partFileOf,
  resolveBackupFile,
} from '../../../src/main/backups/backupFiles';

const RUNS = { numRuns: 300 };
const DATA_DIR = path.resolve('/tmp/portaldesk-data');
const BACKUPS_DIR = path.join(DATA_DIR, BACKUPS_FOLDER);
const GOOD = '123/20261126T091203Z-42.zip';

describe('compactTimestamp', () => {
  it('drops separators and milliseconds', () => {
    expect(compactTimestamp('2026-11-26T09:12:03.000Z')).toBe('20261126T091203Z');
    expect(compactTimestamp('2026-11-26T09:12:03.987Z')).toBe('20261126T091203Z');
    expect(compactTimestamp('2026-11-26T09:12:03Z')).toBe('20261126T091203Z');
  });

  it('writes the instant in UTC whatever offset the service used', () => {
    expect(compactTimestamp('2026-11-26T10:12:03+01:00')).toBe('20261126T091203Z');
    expect(compactTimestamp('2026-11-26T01:12:03-08:00')).toBe('20261126T091203Z');
  });

  it('refuses text that is not a time', () => {
    expect(() => compactTimestamp('not a time')).toThrow(/Not a time: not a time/);
    expect(() => compactTimestamp('')).toThrow(/Not a time/);
  });
});

describe('backupRelativePath', () => {
  it('is <portal>/<compact time>-<export id>.zip with forward slashes', () => {
    expect(backupRelativePath('123', '2026-11-26T09:12:03.000Z', '42')).toBe(GOOD);
    expect(backupRelativePath('7', '2026-01-02T03:04:05Z', 'exp_A-9')).toBe(
      '7/20260102T030405Z-exp_A-9.zip',
    );
  });

  it.each(['', 'abc', '12a', '-1', '1.5', ' 1', '1/2', '../1', '1'.repeat(21), '１２'])(
    'refuses the portal id %j',
    (portalId) => {
      expect(() => backupRelativePath(portalId, '2026-11-26T09:12:03Z', '42')).toThrow(
        /Not a portal id/,
      );
    },
  );

  it.each(['', '..', '../x', 'a/b', 'a\\b', 'x.zip', 'a b', 'é', 'id\n', 'x'.repeat(65)])(
    'refuses the export id %j, in words',
    (exportId) => {
      expect(() => backupRelativePath('123', '2026-11-26T09:12:03Z', exportId)).toThrow(
        /which cannot be a file name; it was not downloaded\.$/,
      );
    },
  );

  it('quotes at most 80 characters of a refused export id', () => {
    const long = 'x'.repeat(70) + '/' + 'y'.repeat(200);
    let message = '';
    try {
      backupRelativePath('123', '2026-11-26T09:12:03Z', long);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`"${long.slice(0, 80)}"`);
    expect(message).not.toContain('y'.repeat(11));
  });

  it('accepts export ids of 1 and 64 characters', () => {
    expect(backupRelativePath('1', '2026-11-26T09:12:03Z', 'a')).toBe('1/20261126T091203Z-a.zip');
    const id = 'A'.repeat(64);
    expect(backupRelativePath('1', '2026-11-26T09:12:03Z', id)).toBe(
      `1/20261126T091203Z-${id}.zip`,
    );
  });

  it('refuses a time that is not one', () => {
    expect(() => backupRelativePath('1', 'yesterday', '42')).toThrow(/Not a time/);
  });
});

describe('resolveBackupFile', () => {
  it('resolves our shape under <dataDir>/backups', () => {
    expect(resolveBackupFile(DATA_DIR, GOOD)).toBe(
      path.join(BACKUPS_DIR, '123', '20261126T091203Z-42.zip'),
    );
  });

  it('gives an absolute path for a relative data dir', () => {
    const file = resolveBackupFile('some/dir', GOOD);
    expect(file).toBe(path.resolve('some/dir', BACKUPS_FOLDER, '123', '20261126T091203Z-42.zip'));
    expect(path.isAbsolute(file!)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['the portal folder only', '123'],
    ['a file name only', '20261126T091203Z-42.zip'],
    ['a trailing slash', '123/20261126T091203Z-42.zip/'],
    ['a leading slash', '/123/20261126T091203Z-42.zip'],
    ['an absolute path', '/etc/passwd'],
    ['an absolute path of our shape', `${BACKUPS_DIR}/123/20261126T091203Z-42.zip`],
    ['.. as the portal', '../20261126T091203Z-42.zip'],
    ['.. as the file', '123/..'],
    ['.. before our shape', '../123/20261126T091203Z-42.zip'],
    ['.. inside', '123/../20261126T091203Z-42.zip'],
    ['. as the portal', './20261126T091203Z-42.zip'],
    ['an extra segment', '123/456/20261126T091203Z-42.zip'],
    ['an empty segment', '123//20261126T091203Z-42.zip'],
    ['backslashes', '123\\20261126T091203Z-42.zip'],
    ['a backslash in the name', '123/20261126T091203Z-..\\x.zip'],
    ['a .part file', '123/20261126T091203Z-42.zip.part'],
    ['another extension', '123/20261126T091203Z-42.zip.exe'],
    ['no extension', '123/20261126T091203Z-42'],
    ['a non-digit portal', 'abc/20261126T091203Z-42.zip'],
    ['a negative portal', '-1/20261126T091203Z-42.zip'],
    ['a 21-digit portal', `${'1'.repeat(21)}/20261126T091203Z-42.zip`],
    ['a timestamp without Z', '123/20261126T091203-42.zip'],
    ['a timestamp with separators', '123/2026-11-26T09:12:03Z-42.zip'],
    ['a short timestamp', '123/2026112T091203Z-42.zip'],
    ['an empty export id', '123/20261126T091203Z-.zip'],
    ['a dotted export id', '123/20261126T091203Z-4.2.zip'],
    ['a spaced export id', '123/20261126T091203Z-4 2.zip'],
    ['a 65-character export id', `123/20261126T091203Z-${'x'.repeat(65)}.zip`],
    ['a trailing newline', '123/20261126T091203Z-42.zip\n'],
    ['a leading space', ' 123/20261126T091203Z-42.zip'],
    ['an upper-case extension', '123/20261126T091203Z-42.ZIP'],
    ['a NUL byte', '123/20261126T091203Z-42.zip\0'],
  ])('refuses %s', (_what, relative) => {
    expect(resolveBackupFile(DATA_DIR, relative)).toBeNull();
  });

  /** Pieces that make paths interesting: our shape, traversal, separators, near misses. */
  const piece = fc.oneof(
    fc.constantFrom(
      '..',
      '.',
      '',
      '/',
      '\\',
      '123',
      '0',
      BACKUPS_FOLDER,
      '20261126T091203Z-42.zip',
      '20261126T091203Z-..zip',
      '20261126T091203Z-42.zip.part',
      '%2e%2e',
      '~',
      'C:',
      '\0',
    ),
    fc.stringMatching(/^\d{1,3}$/),
    fc.stringMatching(/^\d{8}T\d{6}Z-[A-Za-z0-9_.\\/-]{1,6}\.zip$/),
    fc.string({ maxLength: 8 }),
  );
  const validName = fc
    .tuple(fc.stringMatching(/^\d{8}T\d{6}Z$/), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/))
    .map(([time, id]) => `${time}-${id}.zip`);
  const relativeish = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join('/')),
    fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join('')),
    // Two segments, often of our shape, sometimes with a piece before, between or after.
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.stringMatching(/^\d{1,20}$/), piece),
          fc.oneof(validName, piece),
          fc.oneof(
            { arbitrary: fc.constant(''), weight: 3 },
            fc.constantFrom('/', '\\', '/..', '.part', '/x'),
          ),
          fc.oneof(
            { arbitrary: fc.constant(''), weight: 3 },
            fc.constantFrom('/', '../', './', '\\'),
          ),
        )
        .map(([portal, name, after, before]) => `${before}${portal}/${name}${after}`),
    },
  );

  it('for every string, gives null or a file two levels inside <dataDir>/backups', () => {
    let resolved = 0;
    fc.assert(
      fc.property(relativeish, (relative) => {
        const file = resolveBackupFile(DATA_DIR, relative);
        if (file === null) return;
        resolved++;
        const inside = path.relative(BACKUPS_DIR, file);
        expect(path.isAbsolute(inside)).toBe(false);
        expect(inside.split(path.sep)[0]).not.toBe('..');
        expect(path.dirname(path.dirname(file))).toBe(BACKUPS_DIR);
        expect(file.endsWith('.zip')).toBe(true);
      }),
      RUNS,
    );
    // The generator reaches the accepting branch too, not only refusals.
    expect(resolved).toBeGreaterThan(0);
  });

  it('resolves every path backupRelativePath makes, back to the same name', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,20}$/),
        // Four-digit years: what a service completing a backup can say.
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
        (portalId, madeAt, exportId) => {
          const relative = backupRelativePath(portalId, madeAt.toISOString(), exportId);
          const file = resolveBackupFile(DATA_DIR, relative);
          expect(file).not.toBeNull();
          expect(file).toBe(
            path.join(
              BACKUPS_DIR,
              portalId,
              `${compactTimestamp(madeAt.toISOString())}-${exportId}.zip`,
            ),
          );
          expect(path.relative(BACKUPS_DIR, file!).split(path.sep).join('/')).toBe(relative);
        },
      ),
      RUNS,
    );
  });
});

describe('partFileOf', () => {
  it('appends .part', () => {
    const file = resolveBackupFile(DATA_DIR, GOOD)!;
    expect(PART_SUFFIX).toBe('.part');
    expect(partFileOf(file)).toBe(`${file}.part`);
  });

  it('names a file that is never resolved as a backup', () => {
    expect(resolveBackupFile(DATA_DIR, partFileOf(GOOD))).toBeNull();
  });
});

describe('downloadUrlProblem', () => {
  it('follows http(s) links and nothing that would read this computer or carry credentials', () => {
    expect(downloadUrlProblem('https://download.example.com/x/1.zip')).toBeNull();
    expect(downloadUrlProblem('http://127.0.0.1:5000/__downloads/abc.zip')).toBeNull();
    for (const url of [
      'file:///etc/passwd',
      'data:application/zip;base64,UEsDBA==',
      'javascript:alert(1)',
      'ftp://example.com/a.zip',
      'https://user:pw@example.com/a.zip',
      'not a url',
      '',
    ]) {
      expect(downloadUrlProblem(url), url).toMatch(
        /not an address|not http\(s\)|user name or password/,
      );
    }
  });
});
