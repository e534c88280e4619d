import { setMaxListeners } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError, CLIENT_ERROR_CODES, type ApiEndpointRef } from '../api/client/apiError';
import type { CallOptions } from '../api/client/apiClient';
import type { ListPage } from '../api/client/endpointTypes';
import type { NumberedPage } from '../api/client/paginate';

/**
 * Ours: pages of one list requested ahead of the one being stored, so requests keep going out
 * (within the endpoint's budget) while earlier pages are parsed and committed. Pages that arrived
 * meanwhile are handed over together (a run) and stored in one transaction: bench/store.mjs's
 * breakdown, 100,000 records, stores 19,100 records/s a page at a time, 22,600 in runs of 1,000.
 */
export const PAGES_AHEAD = 8;

/**
 * Ours: the most records a run holds. Its transaction blocks the engine's thread (which also
 * answers the UI) for about 50 ms per 1,000 records; 2,000 would gain another fifth for twice that.
 */
export const RUN_RECORDS = 1_000;

interface PagedArgs {
  query?: object;
}

export interface PagesAheadOptions extends CallOptions {
  perPage: number;
  startPage?: number;
  /** Records in the list when known beforehand (page_info.page_count of an earlier call). */
  total?: number | null;
  ahead?: number;
  /** Items a run may hold (default RUN_RECORDS); 1 yields every page alone. */
  runItems?: number;
}

/**
 * Every page of a list call in order, like paginate, but with up to `ahead` pages requested
 * before the caller is done with the current one, and yielded in runs: the next page, plus the
 * pages after it whose answers have already arrived (up to `runItems` items). How many pages
 * there are is known from the first `page_info.page_count` (the total of records); until then
 * pages go one at a time. The walk still ends where a page says `has_next_page: false`; pages
 * requested past it are aborted.
 */
export async function* pageRunsAhead<A extends PagedArgs, T>(
  list: (args: A, options?: CallOptions) => Promise<ListPage<T>>,
  args: A,
  options: PagesAheadOptions,
): AsyncGenerator<NumberedPage<T>[], void, undefined> {
  const {
    perPage,
    startPage = 1,
    total = null,
    ahead = PAGES_AHEAD,
    runItems = RUN_RECORDS,
    ...callOptions
  } = options;
  const abandon = new AbortController();
  setMaxListeners(0, abandon.signal);
  const signal = callOptions.signal
    ? AbortSignal.any([callOptions.signal, abandon.signal])
    : abandon.signal;
  const requested = new Map<number, Promise<ListPage<T>>>();
  /** Pages whose answer arrived (not failed): a run may take them without waiting. */
  const arrived = new Set<number>();
  let lastPage = total === null ? null : Math.max(startPage, Math.ceil(total / perPage));
  const request = (page: number) => {
    const reply = list(
      { ...args, query: { ...args.query, page, per_page: perPage } },
      { ...callOptions, signal },
    );
    // Awaited in order below; an abandoned one is never awaited.
    reply.then(
      () => arrived.add(page),
      () => undefined,
    );
    requested.set(page, reply);
  };
  const take = async (page: number): Promise<NumberedPage<T>> => {
    const reply = await requested.get(page)!;
    requested.delete(page);
    arrived.delete(page);
    if (reply.pageInfo.page_count !== null) {
      lastPage = Math.max(page, Math.ceil(reply.pageInfo.page_count / perPage));
    }
    return { ...reply, page };
  };
  try {
    for (let page = startPage; ;) {
      const until = lastPage === null ? page : Math.min(lastPage, page + ahead - 1);
      for (let next = page; next <= Math.max(page, until); next++) {
        if (!requested.has(next)) request(next);
      }
      const run = [await take(page)];
      let last = run[0]!;
      let items = last.received;
      // An empty page ends its run, so the check below sees it.
      while (
        last.pageInfo.has_next_page &&
        last.received > 0 &&
        arrived.has(last.page + 1) &&
        items + perPage <= runItems
      ) {
        last = await take(last.page + 1);
        items += last.received;
        run.push(last);
      }
      yield run;
      if (!last.pageInfo.has_next_page) return;
      // Answers that arrived while the run was stored go first: each frees a slot for a send.
      await nextTurn();
      if (last.received === 0) {
        const endpoint = (list as { endpoint?: ApiEndpointRef }).endpoint ?? {
          name: list.name,
          label: list.name,
        };
        throw new ApiError({
          kind: 'permanent',
          status: 200,
          errorCode: CLIENT_ERROR_CODES.malformed,
          message: `The service's page ${last.page} of ${endpoint.label} was empty but claimed more pages; PortalDesk stopped reading there. What was read so far is kept.`,
          endpoint,
          problems: ['page_info.has_next_page: true on an empty page'],
        });
      }
      page = last.page + 1;
    }
  } finally {
    if (requested.size > 0) {
      abandon.abort(
        new DOMException('Pages past the end of the list are not needed.', 'AbortError'),
      );
    }
  }
}
