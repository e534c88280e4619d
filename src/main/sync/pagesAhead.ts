import { setMaxListeners } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError, CLIENT_ERROR_CODES, type ApiEndpointRef } from '../api/client/apiError';
import type { CallOptions } from '../api/client/apiClient';
import type { ListPage } from '../api/client/endpointTypes';
import type { NumberedPage } from '../api/client/paginate';

/**
 * Ours: pages of one list requested ahead of the one being stored, so requests keep going out
 * (within the endpoint's budget) while earlier pages are parsed and committed. A few are enough
 * to cover a round trip; more only hold parsed pages in memory (measured: 8 or 24 gained nothing
 * in bench/sync.mjs, which is bound by parsing and storing).
 */
export const PAGES_AHEAD = 4;

interface PagedArgs {
  query?: object;
}

export interface PagesAheadOptions extends CallOptions {
  perPage: number;
  startPage?: number;
  /** Records in the list when known beforehand (page_info.page_count of an earlier call). */
  total?: number | null;
  ahead?: number;
}

/**
 * Every page of a list call in order, like paginate, but with up to `ahead` pages requested
 * before the caller is done with the current one. How many pages there are is known from the
 * first `page_info.page_count` (the total of records); until then pages go one at a time. The
 * walk still ends where a page says `has_next_page: false`; pages requested past it are aborted.
 */
export async function* pagesAhead<A extends PagedArgs, T>(
  list: (args: A, options?: CallOptions) => Promise<ListPage<T>>,
  args: A,
  options: PagesAheadOptions,
): AsyncGenerator<NumberedPage<T>, void, undefined> {
  const { perPage, startPage = 1, total = null, ahead = PAGES_AHEAD, ...callOptions } = options;
  const abandon = new AbortController();
  setMaxListeners(0, abandon.signal);
  const signal = callOptions.signal
    ? AbortSignal.any([callOptions.signal, abandon.signal])
    : abandon.signal;
  const requested = new Map<number, Promise<ListPage<T>>>();
  let lastPage = total === null ? null : Math.max(startPage, Math.ceil(total / perPage));
  const request = (page: number) => {
    const reply = list(
      { ...args, query: { ...args.query, page, per_page: perPage } },
      { ...callOptions, signal },
    );
    reply.catch(() => undefined); // awaited in order below; an abandoned one is never awaited
    requested.set(page, reply);
  };
  try {
    for (let page = startPage; ; page++) {
      const until = lastPage === null ? page : Math.min(lastPage, page + ahead - 1);
      for (let next = page; next <= Math.max(page, until); next++) {
        if (!requested.has(next)) request(next);
      }
      const reply = await requested.get(page)!;
      requested.delete(page);
      if (reply.pageInfo.page_count !== null) {
        lastPage = Math.max(page, Math.ceil(reply.pageInfo.page_count / perPage));
      }
      yield { ...reply, page };
      if (!reply.pageInfo.has_next_page) return;
      // Answers that arrived while the page was stored go first: each frees a slot for a send.
      await nextTurn();
      if (reply.received === 0) {
        const endpoint = (list as { endpoint?: ApiEndpointRef }).endpoint ?? {
          name: list.name,
          label: list.name,
        };
        throw new ApiError({
          kind: 'permanent',
          status: 200,
          errorCode: CLIENT_ERROR_CODES.malformed,
          message: `The service's page ${page} of ${endpoint.label} was empty but claimed more pages; PortalDesk stopped reading there. What was read so far is kept.`,
          endpoint,
          problems: ['page_info.has_next_page: true on an empty page'],
        });
      }
    }
  } finally {
    if (requested.size > 0) {
      abandon.abort(
        new DOMException('Pages past the end of the list are not needed.', 'AbortError'),
      );
    }
  }
}
