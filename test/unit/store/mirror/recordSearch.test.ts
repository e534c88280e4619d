import { describe, expect, it } from 'vitest';
import { ftsMatchQuery } from '../../../../src/main/store/mirror/ftsMatchQuery';
import { highlightParts } from '../../../../src/main/store/mirror/highlightParts';
import type { MirrorComment } from '../../../../src/main/store/mirror/mirrorTypes';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';

const comment = (id: string, content: string): MirrorComment => ({
  id,
  content,
  attachmentIds: [],
  createdBy: '5001',
  createdTime: '2026-02-01T00:00:00.000Z',
  lastUpdatedTime: '2026-02-01T00:00:00.000Z',
});

function setUp() {
  const { mirror, store } = mirroredPortal();
  const laptop = {
    ...makeRecord(1),
    name: 'Lenovo ThinkPad X1',
    description: 'Assigned to the Pune office.',
  };
  const router = {
    ...makeRecord(2),
    name: 'Cisco router',
    description: 'Über-urgent für das Team in München.',
  };
  const monitor = { ...makeRecord(3), name: 'Dell monitor', description: '' };
  mirror.records.upsertRecords([laptop, router, monitor]);
  mirror.comments.replaceRecordComments(PORTAL, monitor.id, [
    comment('c1', 'The vendor confirmed the replacement panel by phone.'),
  ]);
  const search = (text: string, limit = 10) =>
    mirror.search.search({ portalId: PORTAL, text, limit });
  return { mirror, store, laptop, router, monitor, search };
}

describe('full-text search', () => {
  it('finds words in names, descriptions and comments, with the matches highlighted', () => {
    const { search, laptop, router, monitor } = setUp();

    const [byName] = search('thinkpad');
    expect(byName).toMatchObject({
      recordId: laptop.id,
      moduleId: MODULE,
      source: 'name',
      commentId: null,
    });
    expect(byName?.name).toEqual([
      { text: 'Lenovo ', highlighted: false },
      { text: 'ThinkPad', highlighted: true },
      { text: ' X1', highlighted: false },
    ]);

    // Accents and case do not matter; words are prefixes.
    const [byDescription] = search('munch');
    expect(byDescription).toMatchObject({ recordId: router.id, source: 'description' });
    expect(byDescription?.snippet).toContainEqual({ text: 'München', highlighted: true });

    const [byComment] = search('vendor phone');
    expect(byComment).toMatchObject({ recordId: monitor.id, source: 'comment', commentId: 'c1' });
    expect(byComment?.name).toEqual([{ text: 'Dell monitor', highlighted: false }]);
    expect(byComment?.snippet.filter((p) => p.highlighted).map((p) => p.text)).toEqual([
      'vendor',
      'phone',
    ]);

    // Every word must occur.
    expect(search('thinkpad munich')).toEqual([]);
    expect(search('  ')).toEqual([]);
  });

  it('follows upserts, deletions and replaced comments', () => {
    const { mirror, search, laptop, monitor } = setUp();
    mirror.records.upsertRecords([
      { ...laptop, name: 'Lenovo Yoga', lastUpdatedTime: '2027-01-01T00:00:00.000Z' },
    ]);
    expect(search('thinkpad')).toEqual([]);
    expect(search('yoga').map((h) => h.recordId)).toEqual([laptop.id]);

    mirror.comments.replaceRecordComments(PORTAL, monitor.id, [comment('c2', 'Panel swapped.')]);
    expect(search('vendor')).toEqual([]);
    expect(search('swapped').map((h) => h.commentId)).toEqual(['c2']);

    mirror.records.deleteRecords(PORTAL, [laptop.id, monitor.id]);
    expect(search('yoga')).toEqual([]);
    expect(search('swapped')).toEqual([]);
  });

  it('sees rows written past the repositories, and keeps to the portal', () => {
    const { mirror, store, search } = setUp();
    // A writer using plain SQL (as the outbox may for records created offline).
    store.db
      .prepare(
        `INSERT INTO records (portal_id, module_key, id, name, name_fold, created_time, last_updated_time, local_only)
         VALUES (?, ?, 'local:1', 'Offline gadget', 'offline gadget', '2026-03-05T00:00:00.000Z', '2026-03-05T00:00:00.000Z', 1)`,
      )
      .run(PORTAL, mirror.metadata.moduleKey(PORTAL, MODULE));
    expect(search('gadget').map((h) => h.recordId)).toEqual(['local:1']);
    expect(mirror.search.search({ portalId: 'other-portal', text: 'gadget', limit: 5 })).toEqual(
      [],
    );
  });

  it('lists name matches first, then description matches, then comments, newest first', () => {
    const { mirror, search, monitor } = setUp();
    mirror.records.upsertRecords([
      { ...makeRecord(4), name: 'Spare parts', description: 'For the Pune office kitchen.' },
      { ...makeRecord(5), name: 'Pune office printer', description: '' },
      { ...makeRecord(6), name: 'Pune badge', description: 'Office entrance' },
    ]);
    mirror.comments.replaceRecordComments(PORTAL, monitor.id, [
      comment('c3', 'Moved to the Pune office.'),
    ]);
    const hits = search('pune office');
    expect(hits.map((h) => [h.source, h.name.map((p) => p.text).join('')])).toEqual([
      ['name', 'Pune office printer'],
      ['description', 'Pune badge'],
      ['description', 'Spare parts'],
      ['description', 'Lenovo ThinkPad X1'],
      ['comment', 'Dell monitor'],
    ]);
    expect(search('pune office', 2)).toHaveLength(2);
  });
});

describe('ftsMatchQuery', () => {
  it('turns typed words into quoted prefixes that FTS5 syntax cannot leak into', () => {
    expect(ftsMatchQuery('Leno think')).toBe('"Leno"* "think"*');
    expect(ftsMatchQuery('a"b OR c* NEAR(d)')).toBe('"a"* "b"* "OR"* "c"* "NEAR"* "d"*');
    expect(ftsMatchQuery('Straße №5')).toBe('"Straße"* "5"*');
    expect(ftsMatchQuery(' -*" ')).toBeNull();
  });
});

describe('highlightParts', () => {
  it('cuts marked text into plain and highlighted parts', () => {
    expect(highlightParts('a \u0002b\u0003 c')).toEqual([
      { text: 'a ', highlighted: false },
      { text: 'b', highlighted: true },
      { text: ' c', highlighted: false },
    ]);
    expect(highlightParts('\u0002x\u0003\u0002y\u0003')).toEqual([
      { text: 'xy', highlighted: true },
    ]);
    expect(highlightParts(null)).toEqual([]);
  });
});
