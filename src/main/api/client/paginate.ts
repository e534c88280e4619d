/**
 * Walking every page of a list endpoint: pages from 1 (or a resumed page), per_page up to 200,
 * until `has_next_page` is false. `page_info.page_count` is the TOTAL number of records (spec
 * "Limits"), so it gives progress, never the number of pages to fetch.
 */
import { FIRST_PAGE, PER_PAGE_MAX } from '@portaldesk/portal-api/domain/limits';
import type { Portal } from '@portaldesk/portal-api/domain/portal';
import { ApiError, CLIENT_ERROR_CODES, type ApiEndpointRef } from './apiError';
import type { ApiClient, CallOptions } from './apiClient';
import type { EndpointArgs, ItemList, ListPage } from './endpointTypes';

interface PagedArgs {
  query?: { page?: number; per_page?: number };
}

export interface PageOptions extends CallOptions {
  /** Default and maximum: 200 ("per_page ... supported 1-200"). */
  perPage?: number;
  /** Resume from this page (a sync cursor), default 1. */
  startPage?: number;
}

/** A page as the iterator yields it: the page's number beside the reply. */
export type NumberedPage<T> = ListPage<T> & { page: number };

/** The endpoint a client function calls (apiClient labels each), for error messages. */
function endpointOf(list: object & { name?: string }): ApiEndpointRef {
  const labelled = (list as { endpoint?: ApiEndpointRef }).endpoint;
  return labelled ?? { name: list.name ?? 'list', label: list.name ?? 'list' };
}

function checkPerPage(perPage: number): number {
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > PER_PAGE_MAX) {
    throw new RangeError(`perPage must be from 1 to ${PER_PAGE_MAX}, not ${perPage}.`);
  }
  return perPage;
}

/**
 * Every page of a list call, in order. A page claiming more pages while holding no items would
 * repeat forever; it ends the walk with a MALFORMED_RESPONSE error instead.
 */
export async function* paginate<A extends PagedArgs, T>(
  list: (args: A, options?: CallOptions) => Promise<ListPage<T>>,
  args: A,
  options: PageOptions = {},
): AsyncGenerator<NumberedPage<T>, void, undefined> {
  const { perPage: wanted, startPage, ...callOptions } = options;
  const perPage = checkPerPage(wanted ?? PER_PAGE_MAX);
  for (let page = startPage ?? FIRST_PAGE; ; page++) {
    const reply = await list(
      { ...args, query: { ...args.query, page, per_page: perPage } },
      callOptions,
    );
    yield { ...reply, page };
    if (!reply.pageInfo.has_next_page) return;
    if (reply.received === 0) {
      throw new ApiError({
        kind: 'permanent',
        status: 200,
        errorCode: CLIENT_ERROR_CODES.malformed,
        message: `The service's page ${page} of ${endpointOf(list).label} was empty but claimed more pages; PortalDesk stopped reading there. What was read so far is kept.`,
        endpoint: endpointOf(list),
        problems: ['page_info.has_next_page: true on an empty page'],
      });
    }
  }
}

/** Every item of every page, the skipped ones reported through the client's onMalformed. */
export async function collectAll<A extends PagedArgs, T>(
  list: (args: A, options?: CallOptions) => Promise<ListPage<T>>,
  args: A,
  options: PageOptions = {},
): Promise<T[]> {
  const all: T[] = [];
  for await (const page of paginate(list, args, options)) all.push(...page.items);
  return all;
}

/**
 * Every portal: the list is a bare array without page_info, so pages are read until one comes
 * back shorter than per_page.
 */
export async function listAllPortals(
  client: Pick<ApiClient, 'listPortals'>,
  options: PageOptions = {},
): Promise<ItemList<Portal>> {
  const { perPage: wanted, startPage, ...callOptions } = options;
  const perPage = checkPerPage(wanted ?? PER_PAGE_MAX);
  const all: ItemList<Portal> = { items: [], skipped: [], received: 0 };
  for (let page = startPage ?? FIRST_PAGE; ; page++) {
    const args: EndpointArgs<'listPortals'> = { query: { page, per_page: perPage } };
    const reply = await client.listPortals(args, callOptions);
    all.items.push(...reply.items);
    all.skipped.push(
      ...reply.skipped.map((item) => ({ ...item, index: all.received + item.index })),
    );
    all.received += reply.received;
    if (reply.received < perPage) return all;
  }
}
