import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { Api } from '../../../../shared/ipc/contract';
import type {
  OutboxChanged,
  OutboxEntry,
  OutboxNotice,
  OutboxStatus,
  Remap,
} from '../../../../shared/ipc/areas/outbox';
import { createBulkGroupsStore } from './bulkGroupsStore';
import { createHistoryStore } from './historyStore';

export interface OutboxState {
  status: OutboxStatus | null;
  entries: OutboxEntry[];
  /** The last notice (replay finished, or something needs attention) until dismissed. */
  notice: OutboxNotice | null;
  /** Ids made offline that now have the service's id, newest last (the records panel follows). */
  remapped: Remap[];
  /** The last refused action, in the user's words. */
  error: string | null;
  busy: boolean;
  /** At most this many entries of each state are listed (the oldest); `showMore` raises it. */
  perState: number;
  load(): Promise<void>;
  received(changed: OutboxChanged): void;
  refresh(): Promise<void>;
  retry(id?: number): Promise<void>;
  discard(id: number): Promise<void>;
  resolve(
    id: number,
    fields: { field: string; choice: 'mine' | 'theirs' | 'edited'; value?: string }[],
    record?: 'mine' | 'theirs',
  ): Promise<void>;
  setWorkOffline(on: boolean): Promise<void>;
  dismissNotice(): void;
  showMore(): Promise<void>;
}

/**
 * Ours: entries of each state listed at first, and how many more each "Show more" adds. The list
 * is read again at every change (5 a second while a replay sends), so a bulk edit's 10,000
 * updates would be read, sent over the bridge and drawn each time; the counts come from the
 * status, whole.
 */
export const OUTBOX_SHOWN_PER_STATE = 200;

/** Before the first load (and where no outbox is provided): nothing known, nothing queued. */
const EMPTY_OUTBOX: Pick<
  OutboxState,
  'status' | 'entries' | 'notice' | 'remapped' | 'error' | 'busy' | 'perState'
> = {
  status: null,
  entries: [],
  notice: null,
  remapped: [],
  error: null,
  busy: false,
  perState: OUTBOX_SHOWN_PER_STATE,
};

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Ours: kept remaps (enough for any panel to find where its record went). */
const REMAPS_KEPT = 200;

/** The Outbox view's and the status bar's state: pushed summaries, the list, and actions. */
export function createOutboxStore(api: Api) {
  const store = createStore<OutboxState>()((set, get) => {
    const act = async (action: () => Promise<OutboxStatus>) => {
      set({ busy: true, error: null });
      try {
        set({ status: await action() });
        await get().refresh();
      } catch (error) {
        set({ error: describe(error) });
      } finally {
        set({ busy: false });
      }
    };
    return {
      ...EMPTY_OUTBOX,
      load: async () => {
        try {
          set({ status: await api.outbox.status(), error: null });
          await get().refresh();
        } catch (error) {
          set({ error: describe(error) });
        }
      },
      received: (changed) => {
        const { notice, remapped, ...status } = changed;
        // An "attention" notice is stale once nothing is refused or in conflict any more.
        const settled = status.counts.failed + status.counts.conflict === 0;
        const stale = get().notice?.kind === 'attention' && settled;
        set({
          status,
          ...(notice ? { notice } : stale ? { notice: null } : {}),
          ...(remapped.length > 0
            ? { remapped: [...get().remapped, ...remapped].slice(-REMAPS_KEPT) }
            : {}),
        });
        void get().refresh();
      },
      refresh: async () => {
        try {
          set({ entries: await api.outbox.list({ perState: get().perState }) });
        } catch (error) {
          set({ error: describe(error) });
        }
      },
      retry: (id) => act(() => api.outbox.retry(id === undefined ? {} : { id })),
      discard: (id) => act(() => api.outbox.discard({ id })),
      resolve: (id, fields, record) =>
        act(() => api.outbox.resolve({ id, fields, ...(record ? { record } : {}) })),
      setWorkOffline: (on) => act(() => api.outbox.setWorkOffline({ on })),
      dismissNotice: () => set({ notice: null }),
      showMore: async () => {
        set({ perState: get().perState + OUTBOX_SHOWN_PER_STATE });
        await get().refresh();
      },
    };
  });
  api.on('outbox.changed', (changed) => store.getState().received(changed));
  // The "Sent" view's state has its own store; it lives as long as the outbox's (so do the
  // bulk edit groups').
  return Object.assign(store, {
    history: createHistoryStore(api),
    bulkEdits: createBulkGroupsStore(api),
  });
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
