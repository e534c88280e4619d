import { setMaxListeners } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError, CLIENT_ERROR_CODES, type ApiEndpointRef } from '../api/client/apiError';
import type { CallOptions } from '../api/client/apiClient';
import type { ListPage } from '../api/client/endpointTypes';
import type { SkippedItem } from '@portaldesk/portal-api/domain/parseEach';
import { PAGES_AHEAD, RUN_RECORDS } from './pagesAhead';
import {
  compareIds,
  nextWindowIndex,
  readScanWindow,
  SCAN_START,
  stepBack,
  type ScanPosition,
} from './scanWindow';

/**
 * Ours: a full listing of records sorts by id (spec: `sort_by` `ASC(field_name)`; the record's
 * `id` never changes, so an edit during the listing moves nothing) and reads by `index`/`range`
 * (spec: still listed on records), each window starting at the last record of the one before.
 * One record a window is read twice: 200 records cost 1/199 more calls than pages would.
 */
export const SCAN_SORT = 'ASC(id)';

/**
 * Ours: windows in a row that bring nothing new (every record in them read already) and end no
 * further on than the one before, before the scan stops with an error: a service that ignored
 * `index` would answer the same window forever. Windows of records read already that do end
 * further on are the scan catching up with records restored behind its reading point (a window's
 * length at a time) and do not count, however many (a property test met 5 of them with windows
 * of 2 records and 5 records restored).
 */
export const STALLED_WINDOWS_MAX = 4;

interface ScanArgs {
  query?: object;
}

export interface ScanOptions<T = unknown> extends CallOptions {
  /** Records a window (the spec's `range`, 2-200). */
  range: number;
  /** Where an earlier scan stopped (a sync cursor); the list's start by default. */
  from?: ScanPosition;
  /** Records in the list when known beforehand (page_info.page_count of an earlier call). */
  total?: number | null;
  ahead?: number;
  /** New records a run may hold (default RUN_RECORDS); 1 yields every window alone. */
  runItems?: number;
  /**
   * Told of each window read whose records no run hands over: one that did not join the
   * windows before it, one of records read already, and those requested ahead and answered
   * after the scan dropped them. The sync lets go of their pages at once (recordPages.ts).
   */
  onDiscard?: (reply: ListPage<T>) => void;
}

/** New records of one or more windows, in id order, with where the scan stands after them. */
export interface ScanRun<T> {
  items: T[];
  skipped: SkippedItem[];
  /** New records the server sent, the skipped ones included. */
  received: number;
  position: ScanPosition;
  /** page_info.page_count of the last window: the records in the list then. */
  total: number | null;
  /** The list ends with this run. */
  end: boolean;
}

/** The ids of a reply's records in list order, null where a skipped one had none. */
function idsOf<T extends { id: string }>(reply: ListPage<T>): (string | null)[] {
  const ids: (string | null)[] = new Array<string | null>(reply.received).fill(null);
  const skippedAt = new Set(reply.skipped.map((s) => s.index));
  for (const skipped of reply.skipped) ids[skipped.index] = skipped.id;
  let item = 0;
  for (let i = 0; i < ids.length && item < reply.items.length; i++) {
    if (!skippedAt.has(i)) ids[i] = reply.items[item++]!.id;
  }
  return ids;
}

function malformed(list: object, message: string, problem: string): ApiError {
  const endpoint = (list as { endpoint?: ApiEndpointRef }).endpoint ?? {
    name: 'list',
    label: 'list',
  };
  return new ApiError({
    kind: 'permanent',
    status: 200,
    errorCode: CLIENT_ERROR_CODES.malformed,
    message: `${message} of ${endpoint.label}; PortalDesk stopped reading there. What was read so far is kept.`,
    endpoint,
    problems: [problem],
  });
}

/**
 * Every record of a list in id order, once, even while records before the reading point leave
 * or join it: windows of `range` records, each starting on the last record of the one before
 * (scanWindow.ts), up to `ahead` of them requested before the caller is done with the current
 * one, yielded in runs like pagesAhead.ts. A window that does not join the records read before
 * it drops the windows requested after it, and the scan steps back until one joins.
 *
 * A record that joins the list behind the reading point (restored from the trash) is not read,
 * and one that leaves it after being read is still handed over: a listing is no snapshot, and
 * the caller compares counts afterwards.
 */
export async function* scanRunsAhead<A extends ScanArgs, T extends { id: string }>(
  list: (args: A, options?: CallOptions) => Promise<ListPage<T>>,
  args: A,
  options: ScanOptions<T>,
): AsyncGenerator<ScanRun<T>, void, undefined> {
  const {
    range,
    from = SCAN_START,
    total: knownTotal = null,
    ahead = PAGES_AHEAD,
    runItems = RUN_RECORDS,
    onDiscard,
    ...callOptions
  } = options;
  if (!Number.isInteger(range) || range < 2) {
    throw new RangeError(`A scan's windows overlap by one record: range must be 2 or more.`);
  }
  let at = from;
  let total = knownTotal;
  let misses = 0;
  let stalled = 0;
  /** The last id of the latest window that brought nothing new (null: the latest brought some). */
  let stalledLast: string | null = null;
  let base = from.index;
  for (;;) {
    // One pipeline of windows from `base`, until the list ends or a window does not join.
    const abandon = new AbortController();
    setMaxListeners(0, abandon.signal);
    const signal = callOptions.signal
      ? AbortSignal.any([callOptions.signal, abandon.signal])
      : abandon.signal;
    const requested = new Map<number, Promise<ListPage<T>>>();
    const arrived = new Set<number>();
    const request = (index: number) => {
      const reply = list(
        { ...args, query: { ...args.query, index, range } },
        { ...callOptions, signal },
      );
      reply.then(
        () => arrived.add(index),
        () => undefined,
      );
      requested.set(index, reply);
    };
    const take = async (index: number) => {
      const reply = await requested.get(index)!;
      requested.delete(index);
      arrived.delete(index);
      if (reply.pageInfo.page_count !== null) total = reply.pageInfo.page_count;
      return reply;
    };
    let gap = false;
    try {
      for (let index = base; !gap;) {
        // Windows starting before the last record hold something new; the first always goes.
        for (let k = 0, next = index; k < ahead; k++, next = nextWindowIndex(next, range)) {
          if (k > 0 && (total === null || next >= total)) break;
          if (!requested.has(next)) request(next);
        }
        const run: ScanRun<T> = {
          items: [],
          skipped: [],
          received: 0,
          position: at,
          total,
          end: false,
        };
        let windowIndex = index;
        for (;;) {
          const reply = await take(windowIndex);
          const reading = readScanWindow(
            windowIndex,
            idsOf(reply),
            reply.pageInfo.has_next_page,
            at,
          );
          if (reading.kind === 'disorder') {
            throw malformed(
              list,
              `The service listed records out of id order (window at ${windowIndex}, record ${reading.at + 1})`,
              `sort_by ${SCAN_SORT} not honoured`,
            );
          }
          if (reading.kind === 'gap') {
            misses++;
            gap = true;
            onDiscard?.(reply);
            base = stepBack(windowIndex, range, misses);
            break;
          }
          misses = 0;
          const skippedAt = new Set(reply.skipped.map((s) => s.index));
          let item = 0;
          for (let i = 0; i < reply.received; i++) {
            if (skippedAt.has(i)) continue;
            if (i >= reading.firstNew) run.items.push(reply.items[item]!);
            item++;
          }
          run.skipped.push(...reply.skipped.filter((s) => s.index >= reading.firstNew));
          run.received += reply.received - reading.firstNew;
          // No new record of it is handed over: its page is let go of now.
          if (reading.firstNew >= reply.received) onDiscard?.(reply);
          run.position = at = reading.position;
          run.total = total;
          run.end = reading.end;
          if (reading.end) break;
          if (reply.received === 0) {
            throw malformed(
              list,
              `The service's window at ${windowIndex} was empty but claimed more records`,
              'page_info.has_next_page: true on an empty page',
            );
          }
          if (reading.firstNew < reply.received) {
            stalled = 0;
            stalledLast = null;
          } else {
            // Every record of the window was read already. The list grew behind the reading point
            // (records restored there) as long as each such window ends further on than the one
            // before: the scan is catching up, a window's length at a time. A service ignoring
            // `index` answers the same window again, which is what counts towards the stop.
            const ids = idsOf(reply);
            const last = ids[ids.length - 1] ?? null;
            const movedOn =
              stalledLast !== null && last !== null && compareIds(last, stalledLast) > 0;
            if (!movedOn) stalled++;
            stalledLast = last;
          }
          if (stalled > STALLED_WINDOWS_MAX) {
            throw malformed(
              list,
              `The service answered ${stalled} windows in a row up to ${windowIndex} with records already read`,
              'index/range not honoured',
            );
          }
          const following = nextWindowIndex(windowIndex, range);
          if (!arrived.has(following) || run.received + range > runItems) {
            windowIndex = following;
            break;
          }
          windowIndex = following;
        }
        if (run.received > 0 || run.end) yield run;
        if (run.end) return;
        index = windowIndex;
        // Answers that arrived while the run was stored go first: each frees a slot for a send.
        if (!gap) await nextTurn();
      }
    } finally {
      if (onDiscard) {
        for (const reply of requested.values()) reply.then(onDiscard, () => undefined);
      }
      if (requested.size > 0) {
        abandon.abort(new DOMException('These windows are not needed any more.', 'AbortError'));
      }
    }
  }
}
