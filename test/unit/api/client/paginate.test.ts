import { describe, expect, it } from 'vitest';
import { collectAll, listAllPortals, paginate } from '../../../../src/main/api/client/paginate';
import type { ListPage } from '../../../../src/main/api/client/endpointTypes';
import { entityJson, json, RECORDS, testClient } from './fakes';

/** A server with `total` records, answering page/per_page like the spec's lists. */
function recordServer(total: number) {
  return testClient((request) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page'));
    const perPage = Number(url.searchParams.get('per_page'));
    const first = (page - 1) * perPage;
    const ids = Array.from({ length: Math.max(0, Math.min(perPage, total - first)) }, (_, i) =>
      String(first + i + 1),
    );
    return json(200, {
      entities: ids.map((id) => entityJson(id)),
      page_info: {
        page,
        per_page: perPage,
        page_count: total,
        has_next_page: first + perPage < total,
      },
    });
  });
}

describe('paginate', () => {
  it('walks every page at 200 per page and stops on has_next_page false', async () => {
    const { client, sent } = recordServer(450);
    const pages: { page: number; count: number; total: number | null }[] = [];
    for await (const page of paginate(client.listEntities, { ...RECORDS })) {
      pages.push({ page: page.page, count: page.items.length, total: page.pageInfo.page_count });
    }
    // page_count is the total of records (450), not a number of pages.
    expect(pages).toEqual([
      { page: 1, count: 200, total: 450 },
      { page: 2, count: 200, total: 450 },
      { page: 3, count: 50, total: 450 },
    ]);
    expect(sent.map((s) => new URL(s.url).search)).toEqual([
      '?page=1&per_page=200',
      '?page=2&per_page=200',
      '?page=3&per_page=200',
    ]);
  });

  it('trusts has_next_page, not the size of the page, when the last page is full', async () => {
    const { client, sent } = recordServer(400);
    const all = await collectAll(client.listEntities, { ...RECORDS });
    expect(all).toHaveLength(400);
    expect(sent).toHaveLength(2);
  });

  it('keeps the caller query and resumes from a given page', async () => {
    const { client, sent } = recordServer(30);
    const ids = await collectAll(
      client.listEntities,
      { ...RECORDS, query: { sort_by: 'ASC(last_updated_time)' } },
      { perPage: 10, startPage: 2 },
    );
    expect(ids.map((item) => item.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => String(i + 11)),
    );
    expect(new URL(sent[0]!.url).searchParams.get('sort_by')).toBe('ASC(last_updated_time)');
  });

  it('ends with a clear error instead of looping on an empty page that claims more', async () => {
    const empty: ListPage<never> = {
      items: [],
      skipped: [],
      received: 0,
      pageInfo: { page: 1, per_page: 200, page_count: 5, has_next_page: true },
    };
    let calls = 0;
    const list = async () => {
      calls++;
      return empty;
    };
    await expect(collectAll(list, {})).rejects.toMatchObject({ errorCode: 'MALFORMED_RESPONSE' });
    expect(calls).toBe(1);
  });

  it('refuses a per_page the service does not support', async () => {
    const { client } = recordServer(1);
    await expect(collectAll(client.listEntities, { ...RECORDS }, { perPage: 201 })).rejects.toThrow(
      'perPage must be from 1 to 200, not 201.',
    );
  });
});

describe('listAllPortals', () => {
  it('reads the bare array page by page until a short page', async () => {
    const portal = (id: number) => ({ id: String(id), portal_name: `p${id}` });
    const pages = [[portal(1), portal(2)], [portal(3), { id: '4' }], []];
    const { client, sent } = testClient((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      return json(200, pages[page - 1] ?? []);
    });
    const all = await listAllPortals(client, { perPage: 2 });
    expect(all.items.map((p) => p.id)).toEqual(['1', '2', '3']);
    expect(all.skipped).toEqual([
      { index: 3, id: '4', problems: [expect.stringMatching(/^portal_name/)] },
    ]);
    expect(sent).toHaveLength(3);
  });
});
