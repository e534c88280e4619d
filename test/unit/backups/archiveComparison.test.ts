/**
 * A verified archive's records per module against the mirror's, in sentences, and the
 * verification the Backups view shows: modules from the archive and the mirror's census merged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareModule,
  verificationOf,
  type MirrorCensus,
} from '../../../src/main/backups/archiveComparison';
import type { ArchiveCheck } from '../../../src/main/backups/archiveVerify';
import {
  portalArchiveFormat,
  type ArchiveCounts,
} from '../../../src/main/backups/portalArchiveFormat';

const census = (
  apiName: string,
  records: number,
  createdSince = 0,
  pluralName = apiName,
): MirrorCensus => ({ apiName, pluralName, records, createdSince });

describe('compareModule', () => {
  it('explains a larger mirror by the records created since', () => {
    expect(compareModule('Assets', 'assets', 1350, census('Assets', 1352, 2))).toEqual({
      module: 'Assets',
      label: 'assets',
      archive: 1350,
      mirror: 1352,
      createdSince: 2,
      summary: 'archive: 1,350 assets; mirror: 1,352, 2 created since',
    });
  });

  it('says "the same" when the counts match and nothing was created', () => {
    expect(compareModule('Assets', 'assets', 1350, census('Assets', 1350)).summary).toBe(
      'archive: 1,350 assets; mirror: the same',
    );
    expect(compareModule('Tasks', 'tasks', 0, census('Tasks', 0)).summary).toBe(
      'archive: 0 tasks; mirror: the same',
    );
  });

  it('says "the same number" when the counts match although records were created since', () => {
    expect(compareModule('Assets', 'assets', 1350, census('Assets', 1350, 3)).summary).toBe(
      'archive: 1,350 assets; mirror: the same number (3 created since)',
    );
  });

  it('counts fewer in the mirror as deleted, trashed or not synced', () => {
    expect(compareModule('Assets', 'assets', 1350, census('Assets', 1340)).summary).toBe(
      'archive: 1,350 assets; mirror: 1,340, 10 deleted or trashed since, or not synced',
    );
    expect(compareModule('Assets', 'assets', 1350, census('Assets', 1345, 5)).summary).toBe(
      'archive: 1,350 assets; mirror: 1,345, 5 created since, 10 deleted or trashed since, or not synced',
    );
    expect(compareModule('Assets', 'assets', 1350, census('Assets', 0)).summary).toBe(
      'archive: 1,350 assets; mirror: 0, 1,350 deleted or trashed since, or not synced',
    );
  });

  it('counts more than the records created since as not in the archive', () => {
    expect(compareModule('Assets', 'assets', 100, census('Assets', 105, 2)).summary).toBe(
      'archive: 100 assets; mirror: 105, 2 created since, 3 more not in the archive',
    );
    expect(compareModule('Assets', 'assets', 100, census('Assets', 2_100_000)).summary).toBe(
      'archive: 100 assets; mirror: 2,100,000, 2,099,900 more not in the archive',
    );
  });

  it('says when the mirror holds no such module', () => {
    expect(compareModule('Assets', 'assets', 1350, undefined)).toEqual({
      module: 'Assets',
      label: 'assets',
      archive: 1350,
      mirror: null,
      createdSince: null,
      summary:
        'archive: 1,350 assets; the mirror holds no such module (not synced, or deleted since)',
    });
  });

  it('always adds up: mirror = archive + created since + more − deleted', () => {
    const n = fc.nat({ max: 5_000_000 });
    fc.assert(
      fc.property(n, n, n, (archive, records, createdSince) => {
        const { summary, mirror } = compareModule('M', 'things', archive, {
          apiName: 'M',
          pluralName: 'Things',
          records,
          createdSince,
        });
        expect(mirror).toBe(records);
        const num = (text: string | undefined) => Number((text ?? '0').replace(/,/g, ''));
        const [head, tail] = summary.split('; mirror: ') as [string, string];
        expect(num(/^archive: ([\d,]+) things$/.exec(head)?.[1])).toBe(archive);
        if (records === archive) {
          expect(tail).toBe(
            createdSince > 0
              ? `the same number (${createdSince.toLocaleString('en-US')} created since)`
              : 'the same',
          );
          return;
        }
        const created = num(/, ([\d,]+) created since/.exec(tail)?.[1]);
        const deleted = num(/, ([\d,]+) deleted or trashed since/.exec(tail)?.[1]);
        const more = num(/, ([\d,]+) more not in the archive/.exec(tail)?.[1]);
        expect(num(/^([\d,]+)/.exec(tail)?.[1])).toBe(records);
        expect(created).toBe(createdSince);
        expect(deleted === 0 || more === 0).toBe(true);
        expect(archive + created + more - deleted).toBe(records);
      }),
      { numRuns: 300 },
    );
  });
});

describe('verificationOf', () => {
  const entries = [
    { name: 'portal.json', bytes: 120, items: null },
    { name: 'entities.json', bytes: 4096, items: 18 },
  ];
  const counts = (over: Partial<ArchiveCounts> = {}): ArchiveCounts => ({
    recordsByModule: {},
    records: 0,
    comments: 0,
    modules: 0,
    moduleNames: {},
    generatedAt: null,
    exportId: null,
    portalId: null,
    ...over,
  });
  const check = (c: ArchiveCounts | null, format: string | null = 'portal'): ArchiveCheck => ({
    entries,
    format,
    counts: c,
  });
  const AT = '2026-11-26T09:12:03.000Z';

  it('carries the archive totals, entries and time', () => {
    const v = verificationOf(check(counts({ records: 18, comments: 4, modules: 3 })), [], AT);
    expect(v).toEqual({
      verifiedAt: AT,
      entries,
      readable: true,
      records: 18,
      comments: 4,
      modules: 3,
      comparison: [],
    });
  });

  it('is unreadable with no totals and no comparison when no format read it', () => {
    expect(verificationOf(check(null, null), [census('Assets', 10)], AT)).toEqual({
      verifiedAt: AT,
      entries,
      readable: false,
      records: null,
      comments: null,
      modules: null,
      comparison: [],
    });
  });

  it('merges modules of the archive and the census, sorted by api name', () => {
    const v = verificationOf(
      check(
        counts({
          recordsByModule: { Tasks: 5, Assets: 1350, Risks: 2 },
          moduleNames: { Assets: 'Assets', Tasks: 'Work Tasks' },
          records: 1357,
          modules: 3,
        }),
      ),
      [
        census('Assets', 1352, 2, 'Mirror Assets'),
        census('Issues', 3, 3, 'Issues'),
        census('Empty', 0, 0, 'Empties'),
        census('Tasks', 5, 0, 'Tasks (mirror)'),
      ],
      AT,
    );
    expect(
      v.comparison.map((c) => [c.module, c.label, c.archive, c.mirror, c.createdSince]),
    ).toEqual([
      ['Assets', 'assets', 1350, 1352, 2],
      ['Issues', 'issues', 0, 3, 3],
      ['Risks', 'risks', 2, null, null],
      ['Tasks', 'work tasks', 5, 5, 0],
    ]);
    expect(v.comparison.map((c) => c.summary)).toEqual([
      'archive: 1,350 assets; mirror: 1,352, 2 created since',
      'archive: 0 issues; mirror: 3, 3 created since',
      'archive: 2 risks; the mirror holds no such module (not synced, or deleted since)',
      'archive: 5 work tasks; mirror: the same',
    ]);
  });

  it('labels a module by the archive name, else the mirror plural name, else its api name', () => {
    const v = verificationOf(
      check(
        counts({
          recordsByModule: { A: 1, B: 1, C: 1 },
          moduleNames: { A: 'Alphas' },
        }),
      ),
      [census('A', 1, 0, 'Mirror As'), census('B', 1, 0, 'Bravos')],
      AT,
    );
    expect(v.comparison.map((c) => c.label)).toEqual(['alphas', 'bravos', 'c']);
  });

  it('leaves out modules empty on both sides', () => {
    const v = verificationOf(
      check(counts({ recordsByModule: { Zero: 0 } })),
      [census('Zero', 0), census('Nothing', 0, 0)],
      AT,
    );
    expect(v.comparison).toEqual([]);
  });

  it('compares modules named like Object.prototype members from a real tally', () => {
    const tally = portalArchiveFormat.tally();
    tally.add('modules.json', { api_name: '__proto__', plural_name: 'Protos' });
    tally.add('entities.json', { module: '__proto__' });
    tally.add('entities.json', { module: '__proto__' });
    const v = verificationOf(
      check(tally.result()),
      [census('constructor', 4, 1, 'Builders'), census('toString', 1, 0, 'Strings')],
      AT,
    );
    expect(v.comparison.map((c) => c.summary)).toEqual([
      'archive: 2 protos; the mirror holds no such module (not synced, or deleted since)',
      'archive: 0 builders; mirror: 4, 1 created since, 3 more not in the archive',
      'archive: 0 strings; mirror: 1, 1 more not in the archive',
    ]);
  });
});
