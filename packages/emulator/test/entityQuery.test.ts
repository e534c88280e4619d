import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@portaldesk/emulator/http/apiError';
import { planComment } from '@portaldesk/emulator/records/commentInput';
import {
  orderBy,
  parseSortBy,
  readWindow,
  viewCondition,
  windowInfo,
} from '@portaldesk/emulator/records/entityQuery';
import { recordCaches } from '@portaldesk/emulator/records/recordCache';
import type { FieldMeta, ModuleMeta } from '@portaldesk/emulator/records/recordMeta';

function message(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
  throw new Error('accepted');
}

const q = (text: string) => new URLSearchParams(text);

describe('readWindow', () => {
  it('reads page/per_page with the spec defaults and range', () => {
    expect(readWindow(q(''))).toEqual({ offset: 0, limit: 100, page: 1, perPage: 100 });
    expect(readWindow(q('page=3&per_page=200'))).toEqual({
      offset: 400,
      limit: 200,
      page: 3,
      perPage: 200,
    });
    expect(message(() => readWindow(q('per_page=201')))).toBe(
      'per_page must be from 1 to 200, not 201.',
    );
    expect(message(() => readWindow(q('per_page=0')))).toBe(
      'per_page must be from 1 to 200, not 0.',
    );
    expect(message(() => readWindow(q('page=0')))).toBe('page must be 1 or more, not 0.');
  });

  it('reads index/range as a 1-based offset and a count', () => {
    expect(readWindow(q('index=11&range=5'))).toEqual({
      offset: 10,
      limit: 5,
      page: 3,
      perPage: 5,
    });
    expect(readWindow(q('index=3'))).toEqual({ offset: 2, limit: 100, page: 1, perPage: 100 });
    expect(message(() => readWindow(q('index=0')))).toBe('index must be 1 or more, not 0.');
    expect(message(() => readWindow(q('range=201')))).toBe('range must be from 1 to 200, not 201.');
    expect(message(() => readWindow(q('range=x')))).toBe('range must be an integer, not "x".');
    expect(message(() => readWindow(q('index=1&page=1')))).toMatch(/not both/);
  });

  it('reports the total in page_count', () => {
    expect(windowInfo({ offset: 0, limit: 2, page: 1, perPage: 2 }, 3)).toEqual({
      page: 1,
      per_page: 2,
      page_count: 3,
      has_next_page: true,
    });
    expect(windowInfo({ offset: 2, limit: 2, page: 2, perPage: 2 }, 3).has_next_page).toBe(false);
  });
});

const cf = (apiName: string, type: FieldMeta['type']): FieldMeta => ({
  id: 1,
  apiName,
  type,
  mandatory: false,
  currencyCode: 'USD',
  precision: 2,
  userList: 'all_users',
  options: [],
  users: [],
  roles: [],
  optionNames: new Map(),
});

const MODULE: ModuleMeta = {
  id: 1,
  apiName: 'assets',
  active: true,
  fields: new Map([
    ['cf_cost', cf('cf_cost', 'currency')],
    ['cf_tags', cf('cf_tags', 'multi_select')],
    ['cf_code', cf('cf_code', 'single_line')],
  ]),
  layouts: new Map(),
  defaultLayoutId: null,
  statuses: new Map([
    [
      5,
      {
        id: 5,
        name: 'Open',
        color: '',
        closed: false,
        layoutId: null,
        isDefault: true,
        position: 1,
      },
    ],
    [
      6,
      {
        id: 6,
        name: 'Done',
        color: '',
        closed: true,
        layoutId: null,
        isDefault: false,
        position: 2,
      },
    ],
  ]),
  transitions: new Map(),
};

describe('sorting', () => {
  it('parses ASC(field) and DESC(field) in any case', () => {
    const fallback = { field: 'id', descending: false };
    expect(parseSortBy(null, fallback)).toBe(fallback);
    expect(parseSortBy('DESC(name)', fallback)).toEqual({ field: 'name', descending: true });
    expect(parseSortBy('asc( created_time )', fallback)).toEqual({
      field: 'created_time',
      descending: false,
    });
    expect(message(() => parseSortBy('name', fallback))).toMatch(/ASC\(field_name\) or DESC/);
    expect(message(() => parseSortBy('UP(name)', fallback))).toMatch(/ASC\(field_name\)/);
  });

  it('orders by system and custom fields, empty values last, ties by id', () => {
    expect(orderBy({ field: 'id', descending: true }, MODULE)).toBe('e.id DESC');
    expect(orderBy({ field: 'status', descending: false }, MODULE)).toBe(
      '(CASE e.status_id WHEN 5 THEN 1 WHEN 6 THEN 2 END) ASC NULLS LAST, e.id ASC',
    );
    // A currency by code, then amount; the code is NULL exactly when the amount is.
    expect(orderBy({ field: 'cf_cost', descending: true }, MODULE)).toBe(
      "CASE WHEN json_extract(e.custom, '$.cf_cost.amount') IS NULL THEN NULL " +
        "ELSE coalesce(json_extract(e.custom, '$.cf_cost.currency_code'), '') END DESC NULLS LAST, " +
        "json_extract(e.custom, '$.cf_cost.amount') DESC, e.id DESC",
    );
    // Text in natural order.
    expect(orderBy({ field: 'cf_code', descending: false }, MODULE)).toMatch(
      /^pd_natural_key\(json_extract/,
    );
    expect(orderBy({ field: 'name', descending: false }, MODULE)).toBe(
      'pd_natural_key(e.name) ASC NULLS LAST, e.id ASC',
    );
  });

  it('refuses multi-valued and unknown fields', () => {
    expect(message(() => orderBy({ field: 'cf_tags', descending: false }, MODULE))).toBe(
      'sort_by: cf_tags holds several values and cannot be sorted by.',
    );
    expect(message(() => orderBy({ field: 'colour', descending: false }, MODULE))).toMatch(
      /^sort_by: colour is not a sortable field; fields: id, name/,
    );
  });
});

describe('views', () => {
  it('knows the built-in views and refuses others', () => {
    expect(viewCondition(null, MODULE)).toBeUndefined();
    expect(viewCondition('1', MODULE)).toBe('1');
    expect(viewCondition('2', MODULE)).toBe('NOT (e.status_id IN (6))');
    expect(viewCondition('3', MODULE)).toBe('(e.status_id IN (6))');
    expect(message(() => viewCondition('4', MODULE))).toMatch(
      /^view_id "4" is not a view; views: 1 \(All records\)/,
    );
  });
});

describe('planComment', () => {
  it('needs content of at most 65535 characters', () => {
    expect(planComment({ content: 'c'.repeat(65_535) }).content).toHaveLength(65_535);
    expect(message(() => planComment({ content: 'c'.repeat(65_536) }))).toBe(
      'content is longer than 65535 characters.',
    );
    expect(message(() => planComment({}))).toBe('content is required.');
    expect(message(() => planComment({ content: 'x', mood: 1 }))).toMatch(
      /mood is not a comment field/,
    );
  });

  it('adds and removes attachments', () => {
    const created = planComment({
      content: 'x',
      attachments: [{ attachment_id: '11' }, { add: [{ attachment_id: 12 }] }],
    });
    expect(created.attachments).toEqual(['11', '12']);
    expect(
      message(() =>
        planComment({ content: 'x', attachments: [{ remove: [{ attachment_id: '11' }] }] }),
      ),
    ).toMatch(/new comment has no attachments to remove/);
    const updated = planComment(
      {
        content: 'y',
        attachments: [{ remove: [{ attachment_id: '11' }], add: [{ attachment_id: '13' }] }],
      },
      created,
    );
    expect(updated.attachments).toEqual(['12', '13']);
    expect(
      message(() =>
        planComment(
          { content: 'y', attachments: [{ remove: [{ attachment_id: '99' }] }] },
          created,
        ),
      ),
    ).toMatch(/attachment 99 is not on the comment/);
    expect(
      message(() => planComment({ content: 'y', attachments: [{ attachment_id: 'x' }] })),
    ).toMatch(/attachment_id must be a numeric id/);
  });

  it('allows at most 20 attachments', () => {
    const ids = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ attachment_id: String(i + 1) }));
    expect(planComment({ content: 'x', attachments: [{ add: ids(20) }] }).attachments).toHaveLength(
      20,
    );
    expect(message(() => planComment({ content: 'x', attachments: [{ add: ids(21) }] }))).toMatch(
      /at most 20 are allowed/,
    );
  });
});

describe('record caches', () => {
  it('drop everything on a write they did not make, and only the written module’s lists on their own', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (a INTEGER)');
    const caches = recordCaches(db);
    caches.memo('m', () => 1);
    caches.list('l1', () => ({ moduleId: 1, ids: [1, 2] }));
    caches.list('l1 sorted', () => ({ moduleId: 1, ids: [2, 1] }));
    caches.list('l2', () => ({ moduleId: 2, ids: [3] }));

    let before = caches.current();
    db.prepare('INSERT INTO t VALUES (1)').run();
    caches.afterOwnWrite(before, 1);
    expect(recordCaches(db).meta.has('m')).toBe(true);
    expect([...caches.lists.keys()]).toEqual(['l2']);

    // A write no list shows (a comment) keeps every list.
    before = caches.current();
    db.prepare('INSERT INTO t VALUES (2)').run();
    caches.afterOwnWrite(before, null);
    expect([...recordCaches(db).lists.keys()]).toEqual(['l2']);

    // Another write between the start of ours and its end: nothing can be trusted.
    before = caches.current();
    db.prepare('INSERT INTO t VALUES (3)').run();
    db.prepare('INSERT INTO t VALUES (4)').run();
    caches.afterOwnWrite(before - 1, 2);
    expect(recordCaches(db).meta.size).toBe(0);
    expect(caches.lists.size).toBe(0);

    caches.memo('m', () => 1);
    caches.list('l2', () => ({ moduleId: 2, ids: [3] }));
    db.prepare('INSERT INTO t VALUES (5)').run();
    expect(recordCaches(db).meta.size).toBe(0);
    expect(caches.lists.size).toBe(0);
    db.close();
  });

  it('keep a page body from its second ask on, until its module is written', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (a INTEGER)');
    const caches = recordCaches(db);
    const body = Buffer.from('{}');
    caches.offerPage('p1', 1, body);
    caches.offerPage('p2', 2, body);
    expect(caches.page('p1')).toBeUndefined();
    caches.offerPage('p1', 1, body);
    caches.offerPage('p2', 2, body);
    expect(caches.page('p1')).toBe(body);
    expect(caches.page('p2')).toBe(body);

    const before = caches.current();
    db.prepare('INSERT INTO t VALUES (1)').run();
    caches.afterOwnWrite(before, 1);
    expect(recordCaches(db).page('p1')).toBeUndefined();
    expect(caches.page('p2')).toBe(body);
    // Asked for once again after the write: not yet kept.
    caches.offerPage('p1', 1, body);
    expect(caches.page('p1')).toBeUndefined();

    db.prepare('INSERT INTO t VALUES (2)').run();
    expect(recordCaches(db).page('p2')).toBeUndefined();
    caches.offerPage('p2', 2, body);
    expect(caches.page('p2')).toBeUndefined();
    db.close();
  });

  it('keep the lists last used when full', () => {
    const db = new Database(':memory:');
    const caches = recordCaches(db);
    const built: string[] = [];
    const list = (key: string) =>
      caches.list(key, () => {
        built.push(key);
        return { moduleId: 1, ids: [] };
      });
    for (let i = 0; i < 1024; i++) list(`k${i}`);
    list('k0');
    list('k1024');
    list('k0');
    list('k1');
    expect(built.slice(1024)).toEqual(['k1024', 'k1']);
    db.close();
  });
});
