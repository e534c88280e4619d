import { describe, expect, it } from 'vitest';
import type { CallOptions } from '../../../src/main/api/client/apiClient';
import type { ListPage } from '../../../src/main/api/client/endpointTypes';
import { pageRunsAhead } from '../../../src/main/sync/pagesAhead';

interface Call {
  page: number;
  signal: AbortSignal | undefined;
  answer: (reply: ListPage<number>) => void;
}

/** A list endpoint of `total` numbers whose answers the test releases one by one. */
function fakeList(total: number, perPage: number) {
  const calls: Call[] = [];
  const list = (args: { query?: { page?: number } }, options?: CallOptions) =>
    new Promise<ListPage<number>>((resolve, reject) => {
      const page = args.query?.page ?? 1;
      options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
      calls.push({ page, signal: options?.signal, answer: resolve });
    });
  const reply = (page: number): ListPage<number> => {
    const items = Array.from(
      { length: Math.max(0, Math.min(perPage, total - (page - 1) * perPage)) },
      (_, i) => (page - 1) * perPage + i,
    );
    return {
      items,
      skipped: [],
      received: items.length,
      pageInfo: {
        page,
        per_page: perPage,
        page_count: total,
        has_next_page: page * perPage < total,
      },
    };
  };
  const answer = (page: number) => calls.find((c) => c.page === page)!.answer(reply(page));
  return { list, calls, answer };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The page numbers of the run a `next()` gave. */
const numbers = (result: IteratorResult<{ page: number }[]>) =>
  result.done ? [] : result.value.map((p) => p.page);

describe('pageRunsAhead', () => {
  it('asks one page at a time until the total is known, then up to `ahead` pages, yielding in order', async () => {
    const { list, calls, answer } = fakeList(45, 10);
    const pages = pageRunsAhead(list, { query: {} }, { perPage: 10, ahead: 3, runItems: 1 });
    const first = pages.next();
    await turn();
    expect(calls.map((c) => c.page)).toEqual([1]);
    answer(1);
    expect((await first).value).toMatchObject([{ page: 1, items: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }]);

    const second = pages.next();
    await turn();
    // 45 records: five pages; 2, 3 and 4 are asked for at once.
    expect(calls.map((c) => c.page)).toEqual([1, 2, 3, 4]);
    answer(3);
    answer(2);
    expect((await second).value).toMatchObject([{ page: 2 }]);
    const third = pages.next();
    await turn();
    expect(calls.map((c) => c.page)).toEqual([1, 2, 3, 4, 5]);
    expect((await third).value).toMatchObject([{ page: 3 }]);
    answer(4);
    answer(5);
    const rest = [];
    for await (const run of { [Symbol.asyncIterator]: () => pages })
      rest.push(run.map((p) => p.page));
    expect(rest).toEqual([[4], [5]]);
  });

  it('starts ahead at once from a known total and a resumed page, and aborts what is past the end', async () => {
    // The total said 60 when the pull began; the list has shrunk to 25 since.
    const { list, calls, answer } = fakeList(25, 10);
    const pages = pageRunsAhead(
      list,
      { query: {} },
      { perPage: 10, startPage: 2, total: 60, ahead: 4, runItems: 1 },
    );
    const next = pages.next();
    await turn();
    expect(calls.map((c) => c.page)).toEqual([2, 3, 4, 5]);
    answer(2);
    expect((await next).value).toMatchObject([{ page: 2 }]);
    const last = pages.next();
    answer(3);
    expect((await last).value).toMatchObject([{ page: 3, pageInfo: { has_next_page: false } }]);
    expect(await pages.next()).toEqual({ done: true, value: undefined });
    // Pages 4 and 5 (and 6, asked for meanwhile) are not needed: their requests are aborted.
    const past = calls.filter((c) => c.page > 3);
    expect(past.length).toBeGreaterThanOrEqual(2);
    expect(past.every((c) => c.signal?.aborted)).toBe(true);
  });

  it('passes the caller cancellation on, and refuses an empty page that claims more', async () => {
    const controller = new AbortController();
    const { list, calls } = fakeList(100, 10);
    const pages = pageRunsAhead(list, { query: {} }, { perPage: 10, signal: controller.signal });
    const next = pages.next();
    await turn();
    controller.abort(new Error('cancelled'));
    await expect(next).rejects.toThrow('cancelled');
    expect(calls[0]!.signal?.aborted).toBe(true);

    const empty = async () => ({
      items: [],
      skipped: [],
      received: 0,
      pageInfo: { page: 1, per_page: 10, page_count: null, has_next_page: true },
    });
    const walk = pageRunsAhead(empty, {}, { perPage: 10 });
    await walk.next();
    await expect(walk.next()).rejects.toMatchObject({ errorCode: 'MALFORMED_RESPONSE' });
  });

  it('hands over the pages that already arrived as one run, up to runItems', async () => {
    const { list, calls, answer } = fakeList(95, 10);
    const pages = pageRunsAhead(
      list,
      { query: {} },
      { perPage: 10, total: 95, ahead: 10, runItems: 30 },
    );
    const first = pages.next();
    await turn();
    expect(calls.map((c) => c.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // 2, 3, 4 and 6 arrive before 1: the run is 1 to 3 (30 items); 4 alone after it (5 is late).
    for (const page of [2, 3, 4, 6, 1]) answer(page);
    await turn();
    expect(numbers(await first)).toEqual([1, 2, 3]);
    expect(numbers(await pages.next())).toEqual([4]);
    const fifth = pages.next();
    await turn();
    answer(5);
    expect(numbers(await fifth)).toEqual([5, 6]);
    for (const page of [7, 8, 9, 10]) answer(page);
    const rest = [];
    for await (const run of { [Symbol.asyncIterator]: () => pages })
      rest.push(run.map((p) => p.page));
    expect(rest).toEqual([[7, 8, 9], [10]]);
  });
});
