/**
 * The Configure view's recycle bin: the bin of the portal on screen (projects, phases, tasklists,
 * tasks and issues trashed on the service), its sort, filter and selection, and the actions on it.
 * A slice of the configure store, so the portal on screen has one owner; reads follow the user's
 * query, and the newest read wins.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { Api } from '../../../../shared/ipc/contract';
import {
  BIN_SEARCH_MAX,
  type BinEntry,
  type BinListArgs,
  type BinListing,
  type BinModule,
} from '../../../../shared/ipc/areas/bin';

/** `bin:read` is also the busy flag of "Read again" (a read of the service). */
export type BinErrorPlace = 'bin:read' | 'bin:restore' | 'bin:delete' | 'bin:empty';

export type BinSort = BinListArgs['sort'];

export interface BinQuery {
  sort: BinSort;
  /** null: every module. */
  module: BinModule | null;
  /** As typed (the engine is sent it trimmed). */
  search: string;
}

/** An item the user may act on, as the actions name it. */
export interface BinItemRef {
  module: BinModule;
  id: string;
}

export interface BinSlice {
  /** The bin of the portal on screen, as the engine last answered; null until read. */
  bin: BinListing | null;
  binQuery: BinQuery;
  /** Keys (`binKey`) of the selected items; only items shown and open to an action. */
  binSelected: ReadonlySet<string>;
  /** Reads the bin with the query on screen; `refresh` reads the service again. */
  readBin(refresh: boolean): Promise<void>;
  setBinSort(sort: BinSort): void;
  setBinModule(module: BinModule | null): void;
  setBinSearch(search: string): void;
  setBinSelected(entries: readonly BinEntry[], selected: boolean): void;
  /** Each resolves true once queued (the bin is read again), false if refused. */
  restoreBinItems(): Promise<boolean>;
  deleteBinItems(): Promise<boolean>;
  emptyBin(confirmName: string): Promise<boolean>;
}

/** The newest items first: what was trashed last is what is looked for most. */
export const DEFAULT_BIN_SORT: BinSort = { by: 'trashed_time', descending: true };

const BIN_MODULES: Record<BinModule, true> = {
  projects: true,
  phases: true,
  tasklists: true,
  tasks: true,
  issues: true,
};

/** The module as the actions take it; null for a module the contract's actions do not name. */
export function binModuleOf(entry: BinEntry): BinModule | null {
  return Object.hasOwn(BIN_MODULES, entry.module) ? (entry.module as BinModule) : null;
}

export function binKey(entry: BinEntry): string {
  return `${entry.module}:${entry.id}`;
}

/** Whether the item can be selected: nothing is queued for it, and its module can be named. */
export function isBinSelectable(entry: BinEntry): boolean {
  return entry.pending === null && binModuleOf(entry) !== null;
}

export function binListArgs(portalId: string, query: BinQuery, refresh: boolean): BinListArgs {
  const search = query.search.trim().slice(0, BIN_SEARCH_MAX);
  const filter = {
    ...(query.module ? { module: query.module } : {}),
    ...(search ? { search } : {}),
  };
  return {
    portalId,
    sort: query.sort,
    ...(Object.keys(filter).length > 0 ? { filter } : {}),
    refresh,
  };
}

/** The selected items still in the listing, in its order. */
export function selectedBinItems(
  bin: BinListing | null,
  selected: ReadonlySet<string>,
): BinItemRef[] {
  if (!bin) return [];
  const refs: BinItemRef[] = [];
  for (const entry of bin.items) {
    const module = binModuleOf(entry);
    if (module && entry.pending === null && selected.has(binKey(entry))) {
      refs.push({ module, id: entry.id });
    }
  }
  return refs;
}

/**
 * What the slice reads and writes of the store holding it (configureStore.ts): the portal on
 * screen and the per-control errors and busy flags, besides its own state. Named here, not
 * imported, so the store and its slice do not import each other.
 */
export interface BinHost extends BinSlice {
  portalId: string | null;
  errors: Partial<Record<BinErrorPlace, string>>;
  busy: Partial<Record<BinErrorPlace, boolean>>;
}
type Set_ = StoreApi<BinHost>['setState'];
type Get = StoreApi<BinHost>['getState'];
type Act = <T>(place: BinErrorPlace, action: () => Promise<T>) => Promise<T | null>;

export function createBinSlice(
  api: Api,
  set: Set_,
  get: Get,
  act: Act,
  describe: (error: unknown) => string,
): BinSlice {
  let latest = 0;

  const readBin = async (refresh: boolean): Promise<void> => {
    const portalId = get().portalId;
    if (portalId === null) return;
    const read = ++latest;
    if (refresh) set((state) => ({ busy: { ...state.busy, 'bin:read': true } }));
    try {
      const bin = await api.bin.list(binListArgs(portalId, get().binQuery, refresh));
      if (get().portalId !== portalId) return;
      if (read !== latest) {
        // A later read may have answered before this one read the service: read what it kept.
        if (refresh) void readBin(false);
        return;
      }
      const shown = new Set(bin.items.filter(isBinSelectable).map(binKey));
      set((state) => ({
        bin,
        // What is no longer shown (filtered out, queued, gone) is no longer selected.
        binSelected: new Set([...state.binSelected].filter((key) => shown.has(key))),
        errors: { ...state.errors, 'bin:read': undefined },
      }));
    } catch (error) {
      if (get().portalId === portalId && read === latest) {
        set((state) => ({ errors: { ...state.errors, 'bin:read': describe(error) } }));
      }
    } finally {
      if (refresh) set((state) => ({ busy: { ...state.busy, 'bin:read': false } }));
    }
  };

  const query = (change: Partial<BinQuery>) => {
    set((state) => ({ binQuery: { ...state.binQuery, ...change } }));
    void readBin(false);
  };

  const portalOf = () => {
    const portalId = get().portalId;
    if (portalId === null) throw new Error('Choose a portal first.');
    return portalId;
  };

  return {
    bin: null,
    binQuery: { sort: DEFAULT_BIN_SORT, module: null, search: '' },
    binSelected: new Set(),
    readBin,
    setBinSort: (sort) => query({ sort }),
    setBinModule: (module) => query({ module }),
    setBinSearch: (search) => {
      if (search.trim() === get().binQuery.search.trim()) return;
      query({ search });
    },
    setBinSelected: (entries, selected) =>
      set((state) => {
        const next = new Set(state.binSelected);
        for (const entry of entries) {
          if (!isBinSelectable(entry)) continue;
          if (selected) next.add(binKey(entry));
          else next.delete(binKey(entry));
        }
        return { binSelected: next };
      }),
    restoreBinItems: async () =>
      (await act('bin:restore', async () => {
        const items = selectedBinItems(get().bin, get().binSelected);
        await api.bin.restore({ portalId: portalOf(), items });
        set({ binSelected: new Set() });
        await readBin(false);
        return true;
      })) === true,
    deleteBinItems: async () =>
      (await act('bin:delete', async () => {
        const items = selectedBinItems(get().bin, get().binSelected);
        await api.bin.delete({ portalId: portalOf(), items });
        set({ binSelected: new Set() });
        await readBin(false);
        return true;
      })) === true,
    emptyBin: async (confirmName) =>
      (await act('bin:empty', async () => {
        await api.bin.empty({ portalId: portalOf(), confirmName });
        set({ binSelected: new Set() });
        await readBin(false);
        return true;
      })) === true,
  };
}
