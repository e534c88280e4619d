import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { Api } from '../../../../shared/ipc/contract';
import type {
  EventDetailView,
  EventListQuery,
  EventSummaryView,
  RouterOverview,
} from '../../../../shared/ipc/areas/router';

export type RouterTab = 'events' | 'publishers' | 'rules' | 'targets';

/** How many rows one page of the event log asks for; the list grows as the user scrolls. */
export const EVENT_PAGE = 200;

export interface EventFilters {
  status: EventListQuery['status'];
  publisherId: string | undefined;
  ruleId: string | undefined;
  fromMs: number | undefined;
  toMs: number | undefined;
}

/** A one-off message and the secret it is about (an API key shown once), with a Copy button. */
export interface RouterNotice {
  message: string;
  secret: string;
}

export interface RouterState {
  tab: RouterTab;
  overview: RouterOverview | null;
  events: EventSummaryView[];
  total: number;
  filters: EventFilters;
  selectedId: string | null;
  detail: EventDetailView | null;
  /** A failed action, in words for the user. */
  error: string | null;
  /** A new API key, shown once with its message until dismissed. */
  notice: RouterNotice | null;
  setTab(tab: RouterTab): void;
  load(): Promise<void>;
  loadEvents(more?: boolean): Promise<void>;
  setFilters(patch: Partial<EventFilters>): void;
  select(id: string | null): Promise<void>;
  /** Runs an action, reloads what it may have changed, and reports a failure instead of throwing. */
  run<T>(action: (api: Api) => Promise<T>): Promise<T | undefined>;
  setNotice(notice: RouterNotice | null): void;
  changed(change: { config: boolean; events: boolean }): void;
}

const describe = (error: unknown): string =>
  error instanceof CallFailure
    ? error.message
    : error instanceof Error
      ? error.message
      : String(error);

export function createRouterStore(api: Api) {
  return createStore<RouterState>()((set, get) => ({
    tab: 'events',
    overview: null,
    events: [],
    total: 0,
    filters: {
      status: undefined,
      publisherId: undefined,
      ruleId: undefined,
      fromMs: undefined,
      toMs: undefined,
    },
    selectedId: null,
    detail: null,
    error: null,
    notice: null,
    setTab: (tab) => set({ tab }),
    load: async () => {
      try {
        set({ overview: await api.router.overview(), error: null });
        await get().loadEvents();
      } catch (error) {
        set({ error: `The event router could not be read: ${describe(error)}` });
      }
    },
    loadEvents: async (more = false) => {
      const { filters, events } = get();
      const query: EventListQuery = {
        offset: more ? events.length : 0,
        limit: EVENT_PAGE,
        ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)),
      };
      try {
        const page = await api.router.listEvents(query);
        set({ events: more ? [...events, ...page.rows] : page.rows, total: page.total });
      } catch (error) {
        set({ error: `The event log could not be read: ${describe(error)}` });
      }
    },
    setFilters: (patch) => {
      set({ filters: { ...get().filters, ...patch } });
      void get().loadEvents();
    },
    select: async (id) => {
      set({ selectedId: id, detail: id === null ? null : get().detail });
      if (id === null) return;
      try {
        const detail = await api.router.getEvent({ id });
        if (get().selectedId === id) set({ detail });
      } catch (error) {
        set({ error: describe(error) });
      }
    },
    run: async (action) => {
      try {
        const result = await action(api);
        set({ error: null });
        set({ overview: await api.router.overview() });
        return result;
      } catch (error) {
        set({ error: describe(error) });
        return undefined;
      }
    },
    setNotice: (notice) => set({ notice }),
    changed: (change) => {
      if (change.config) void api.router.overview().then((overview) => set({ overview }));
      if (change.events) {
        void get().loadEvents();
        const id = get().selectedId;
        if (id) void get().select(id);
      }
    },
  }));
}

export type RouterStore = ReturnType<typeof createRouterStore>;
