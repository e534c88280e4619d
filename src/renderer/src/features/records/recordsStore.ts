import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { Api } from '../../../../shared/ipc/contract';
import type {
  RecentRecord,
  RecordDetail,
  RecordRow,
  RecordsColumns,
  RecordsModule,
  RecordsPortal,
  RecordsSort,
  SavedFilter,
  SearchHit,
  TrashedRecord,
} from '../../../../shared/ipc/areas/records';
import type { FilterField } from '@portaldesk/portal-api/filter';
import type { BackupSnapshot } from '../../../../shared/ipc/areas/backups';
import {
  checkDraft,
  draftFromFilter,
  EMPTY_DRAFT,
  filterText,
  type FilterDraft,
} from '../filters/filterDraft';
import { parseFilter } from '@portaldesk/portal-api/filter';
import { clampWidth, reconcileLayout, toggleColumn, type ColumnLayout } from './columnLayout';
import {
  applyGesture,
  clipAnchor,
  gestureRows,
  NO_SELECTION,
  overLimit,
  pickedOf,
  selectAll,
  type Gesture,
  type GestureMode,
  type Picked,
  type RowSelection,
} from './rowSelection';
import { BLOCK_ROWS, RowWindows } from './rowWindows';
import { CopyRefused, rowsAsText, selectedRows, type CopySource } from './selectedRowsText';

export interface DetailState {
  recordId: string;
  data: RecordDetail | null;
  /** The record's module's columns when it is not the module in the table (opened from search). */
  columns: RecordsColumns | null;
  loading: boolean;
  error: string | null;
  /** "Fetch now" for comments is running. */
  fetching: boolean;
  fetchError: string | null;
  /**
   * Non-zero when the panel should take the keyboard focus (opened from search); a new number for
   * each such opening, 0 for one that should leave the focus where it is (the table, a refresh).
   */
  focusRequest: number;
}

export interface RecordsState {
  portals: RecordsPortal[] | null;
  portalsError: string | null;
  portalId: string | null;
  modules: RecordsModule[] | null;
  modulesError: string | null;
  moduleId: string | null;
  columns: RecordsColumns | null;
  columnsError: string | null;
  layout: ColumnLayout | null;
  sort: RecordsSort | undefined;
  /** The filter the list shows (the API's `filter` JSON text); undefined: every record. */
  filter: string | undefined;
  draft: FilterDraft;
  filterOpen: boolean;
  /** Records in the list on screen; null until the first window arrived. */
  total: number | null;
  /** Bumped for each new list (module, filter or sort); `shownGeneration` is the one on screen. */
  generation: number;
  shownGeneration: number;
  /** Bumped when rows arrive, so the table re-renders. */
  rowsVersion: number;
  listError: string | null;
  /** A list is being read (a new filter, sort or module) while the previous one stays on screen. */
  listLoading: boolean;
  /**
   * The list being read is the same one again (its records changed: a sync's pages, a replayed
   * edit), not one the person asked for: the grid is not marked busy for it (aria-busy), since
   * during a sync that comes up to once a second while they work in it.
   */
  listRefreshing: boolean;
  /**
   * The total of the last list the person asked for (module, filter, sort), for the count screen
   * readers are told of; a refresh of the same list changes `total` but not this, so a sync does
   * not announce a new count every second.
   */
  announcedTotal: number | null;
  /** Bumped when a new list should be shown from its top (not for a refresh of the same one). */
  scrollReset: number;
  focused: number;
  selection: RowSelection;
  /** A range's ids are being read from the engine (the selection waits for them). */
  selecting: boolean;
  /** Why the last selection gesture changed nothing, in words; null when it did what it said. */
  selectionNote: string | null;
  detail: DetailState | null;
  searchText: string;
  searchHits: SearchHit[] | null;
  searchError: string | null;
  recent: RecentRecord[];
  saved: SavedFilter[];
  savedError: string | null;
  /** The module's records in the recycle bin; null until asked for. */
  trashed: TrashedRecord[] | null;
  trashedError: string | null;
  /** A backup browsed read-only instead of the live mirror; null: the live mirror. */
  snapshot: BackupSnapshot | null;
  /** What the last Copy did, in words (`error`: nothing was copied); null before any. */
  copied: { message: string; error: boolean } | null;
  copying: boolean;

  load(): Promise<void>;
  selectPortal(portalId: string): Promise<void>;
  selectModule(moduleId: string): Promise<void>;
  /** Opens a module with a filter (API filter JSON) applied, e.g. from the overview's charts. */
  openFiltered(portalId: string, moduleId: string, filter: string | undefined): Promise<void>;
  setSort(key: string): void;
  /** Changes the draft; applies it `after` ms later when it is valid (null: do not apply). */
  setDraft(draft: FilterDraft, after?: number | null): void;
  applyFilter(text: string | undefined): void;
  loadSaved(saved: SavedFilter): void;
  saveFilter(name: string): Promise<boolean>;
  deleteFilter(id: number): Promise<void>;
  setFilterOpen(open: boolean): void;
  /** The table's rows on screen: fetches what is missing. */
  showRows(first: number, last: number): void;
  row(index: number): RecordRow | undefined;
  focusRow(index: number, mode?: GestureMode | 'move'): void;
  selectEverything(): void;
  /**
   * Copies the selected rows, as the table shows them with a header row, as tab-separated text
   * through `write` (the clipboard).
   */
  copySelection(write: (text: string) => Promise<void>): Promise<void>;
  /**
   * What is selected, once every gesture made has been read into ids: the records picked (in the
   * table's order when picked), or every record of the list but some.
   */
  picked(): Promise<Picked>;
  /** Opens a record in the detail panel; `focus` moves the keyboard focus there. */
  openRecord(recordId: string, options?: { focus?: boolean }): Promise<void>;
  closeDetail(): void;
  fetchComments(): Promise<void>;
  search(text: string): Promise<void>;
  clearSearch(): void;
  loadTrashed(): Promise<void>;
  toggleColumn(key: string): void;
  resizeColumn(key: string, width: number): void;
  resetColumns(): void;
  /** The engine says records changed (a sync page, a replayed edit). */
  changed(event: { portalId: string; moduleId: string | null }): void;
}

export function describeError(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

const LAST_PLACE_KEY = 'portaldesk.records.last';
const layoutKey = (portalId: string, moduleId: string) =>
  `portaldesk.records.columns.${portalId}.${moduleId}`;
/**
 * Ours: the navigation's module counts are read again at most this often while records change (a
 * sync of eight modules would otherwise read all eight counts eight times a second).
 */
const COUNTS_REFRESH_MS = 1000;
/** Why a Shift range was not applied when its anchor's record moved away or left the list. */
const ANCHOR_MOVED =
  'The row the selection started from moved or left the list since it was clicked; the selection was not changed. Click the first row again, then Shift+click.';

/**
 * Ours: a selection (records picked, or left out of "every row") is checked against the list
 * after each refresh this many ids to a reading (one lookup an id, a few milliseconds), so the
 * engine answers other readings between them however many of the 50,000 a selection may name.
 */
const PRUNE_IDS_CHUNK = 5_000;
/** Rows a first read asks for before the table has measured the screen. */
const FIRST_SCREEN_ROWS = 60;

function readStorage(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function writeStorage(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the preference lasts until the page closes.
  }
}

/**
 * The focused row and the selection's anchor within a list of `total` rows: a refresh that keeps
 * the position (records.changed) can bring a shorter list, and the focus must not stay on rows
 * that are gone (Enter would open nothing). The selection is of records, not places: it stays.
 */
function withinTotal(
  state: { focused: number; selection: RowSelection },
  total: number,
): { focused: number; selection: RowSelection } {
  return {
    focused: Math.max(0, Math.min(state.focused, total - 1)),
    selection: clipAnchor(state.selection, total),
  };
}

/** The filter language's catalog of the module, as the mirror filters it. */
export function filterFieldsOf(columns: RecordsColumns | null): FilterField[] {
  if (!columns) return [];
  return columns.fields.flatMap((field) =>
    field.filterKind === null
      ? []
      : [{ name: field.key, kind: field.filterKind, label: field.label }],
  );
}

export interface RecordsStoreOptions {
  /**
   * Read a backup opened for browsing (`backups.browse`) instead of the live mirror: every read
   * names it, nothing is edited, fetched or remembered as recently viewed, and the last place
   * and `records.changed` are the live workspace's alone.
   */
  snapshot?: BackupSnapshot;
}

export function createRecordsStore(api: Api, options: RecordsStoreOptions = {}) {
  const snapshot = options.snapshot ?? null;
  /** What every read of the mirror carries: the browsed backup, if any. */
  const scope = snapshot ? { snapshot: snapshot.backupId } : {};
  const remember = (place: { portalId: string; moduleId: string }) => {
    if (!snapshot) writeStorage(LAST_PLACE_KEY, place);
  };
  let windows = new RowWindows();
  /** The next list's rows, until its first window arrives (the old rows stay on screen). */
  let pending: { windows: RowWindows; generation: number; refresh: boolean } | null = null;
  let wanted = { first: 0, last: FIRST_SCREEN_ROWS };
  let applyTimer: ReturnType<typeof setTimeout> | undefined;
  let countsTimer: ReturnType<typeof setTimeout> | undefined;
  let searchSeq = 0;
  let detailSeq = 0;
  /** Selection gestures waiting for their rows' ids, in order (see `select`). */
  let selecting: Promise<void> = Promise.resolve();
  let waiting = 0;
  /**
   * Bumped for each list the person asks for (module, filter, sort), not for a refresh of the
   * same list: a selection, and what reads it (gestures being read, Copy), belongs to one list,
   * and a sync's refreshes (up to once a second) must not drop them.
   */
  let listSerial = 0;
  /**
   * Bumped by every gesture the selection takes: a check of the selection against the list
   * (`prune`) answered after one is out of date, since its answer may concern a record picked
   * again meanwhile.
   */
  let gestures = 0;

  const store = createStore<RecordsState>()((set, get) => {
    /**
     * The list on screen (its filter and sort as they are now) for reading a selection: the rows
     * loaded as they are, the rest in windows from the mirror (Copy rows, a bulk edit's ids).
     */
    const listedRows = (portalId: string, moduleId: string): CopySource => {
      const { filter, sort } = get();
      return {
        ids: (offset, limit) =>
          api.records.ids({
            ...scope,
            portalId,
            moduleId,
            offset,
            limit,
            ...(filter === undefined ? {} : { filter }),
            ...(sort === undefined ? {} : { sort }),
          }),
        rows: (ids) => api.records.rows({ ...scope, portalId, moduleId, ids }),
      };
    };

    /**
     * Applies a selection gesture: at once when the table holds its rows, else after reading
     * their ids from the engine; gestures made meanwhile wait their turn, so each applies to the
     * selection the one before left.
     */
    const select = (gesture: Gesture | { mode: 'all' }): void => {
      // A list asked for is still being read: the rows on screen are the old list's, and the
      // selection was cleared for the new one. Picking from the old rows would select records
      // the new list may not hold, counted but never shown.
      if (pending !== null && !pending.refresh) {
        set({
          selectionNote:
            'The new list is still being read; nothing was selected. Select the rows again once it shows.',
        });
        return;
      }
      if (waiting === 0 && selectNow(gesture)) return;
      waiting += 1;
      set({ selecting: true });
      const serial = listSerial;
      // The rows on screen when the gesture was made: the places it names.
      const seen = windows;
      selecting = selecting
        .then(async () => {
          if (serial !== listSerial) return;
          if (gesture.mode === 'all') selectNow(gesture);
          else await selectLater(gesture, seen, serial);
        })
        .catch((error: unknown) =>
          set({
            selectionNote: `The rows could not be read (${describeError(error)}); the selection was not changed. Select them again.`,
          }),
        )
        .finally(() => {
          waiting -= 1;
          if (waiting === 0) set({ selecting: false });
        });
    };

    /**
     * A Shift range whose anchor's place holds another record than the one it was set on: the
     * record moved out of the rows held, or left the list. Selecting from its place would start
     * the range at a record nobody clicked.
     */
    const startsElsewhere = (
      selection: RowSelection,
      gesture: Gesture,
      idAt: (place: number) => string | undefined,
    ): boolean =>
      (gesture.mode === 'extend' || gesture.mode === 'extend-keep') &&
      selection.anchor !== null &&
      selection.anchorId !== null &&
      idAt(selection.anchor) !== selection.anchorId;

    /**
     * The selection with its anchor where its record is among `rows` (the rows the gesture was
     * made on): a sync that moved that record moved where a Shift range starts from. A record
     * not held (scrolled far away, or gone) leaves the anchor at its place.
     */
    const anchoredIn = (rows: RowWindows): RowSelection => {
      const { selection } = get();
      if (selection.anchorId === null) return selection;
      const at = rows.placeOf(selection.anchorId);
      return at === undefined || at === selection.anchor ? selection : { ...selection, anchor: at };
    };

    /** Applies a gesture whose rows the table holds; false when some must be read. */
    const selectNow = (gesture: Gesture | { mode: 'all' }): boolean => {
      const selection = anchoredIn(windows);
      const { total } = get();
      if (gesture.mode === 'all') {
        gestures += 1;
        set({ selection: selectAll(total ?? 0), selectionNote: null });
        return true;
      }
      const rows = gestureRows(selection, gesture, total ?? 0);
      if (rows.kind === 'refused') {
        set({ selectionNote: rows.message });
        return true;
      }
      const ids: string[] = [];
      if (rows.kind === 'rows') {
        for (let index = rows.first; index <= rows.last; index++) {
          const row = windows.row(index);
          if (!row) return false;
          ids.push(row.id);
        }
        if (startsElsewhere(selection, gesture, (place) => ids[place - rows.first])) {
          set({ selectionNote: ANCHOR_MOVED });
          return true;
        }
      }
      keep(applyGesture(selection, gesture, ids, total ?? 0));
      return true;
    };

    /** A gesture's selection, unless it picks more rows than can be named one by one. */
    const keep = (next: RowSelection): void => {
      const refused = overLimit(next);
      if (refused) {
        set({ selectionNote: refused });
        return;
      }
      gestures += 1;
      set((s) => ({ selection: clipAnchor(next, s.total ?? 0), selectionNote: null }));
    };

    /**
     * Applies a gesture after reading its rows' ids in one reading of the list. The rows the
     * table showed in that range when the gesture was made (`seen`) must read the same: if a
     * sync moved rows since, the places the person picked hold other records now, and nothing is
     * selected for them.
     */
    const selectLater = async (
      gesture: Gesture,
      seen: RowWindows,
      serial: number,
    ): Promise<void> => {
      if (windows === seen && selectNow(gesture)) return;
      const { portalId, moduleId, total } = get();
      const selection = anchoredIn(seen);
      if (portalId === null || moduleId === null || total === null) return;
      const rows = gestureRows(selection, gesture, total);
      if (rows.kind === 'refused') {
        set({ selectionNote: rows.message });
        return;
      }
      const wanted = rows.kind === 'all' ? null : rows;
      const read = wanted
        ? await listedRows(portalId, moduleId).ids(wanted.first, wanted.last - wanted.first + 1)
        : { ids: [], total };
      if (listSerial !== serial) return;
      // Rows the table never showed are whatever the list holds now (the focus moved onto a row
      // still loading, say): nothing to compare them with, and a sync changing the total
      // meanwhile does not make them wrong.
      let moved = wanted !== null && read.ids.length !== wanted.last - wanted.first + 1;
      for (let index = wanted?.first ?? 0; wanted && !moved && index <= wanted.last; index++) {
        const row = seen.row(index);
        if (row) moved = read.ids[index - wanted.first] !== row.id;
      }
      if (moved) {
        set({
          selectionNote:
            'The list changed while the rows were read (a sync stored records); the selection was not changed. Select the rows again.',
        });
        return;
      }
      if (
        wanted &&
        startsElsewhere(selection, gesture, (place) => read.ids[place - wanted.first])
      ) {
        set({ selectionNote: ANCHOR_MOVED });
        return;
      }
      // Only gestures change the selection, one at a time (`keep` clips the anchor to a list a
      // refresh meanwhile shortened).
      keep(applyGesture(selection, gesture, read.ids, total));
    };

    /**
     * After a refresh of the list (a sync's pages, a replayed edit): the records picked, or left
     * out of "every row", that the list no longer holds (trashed, deleted, changed out of the
     * filter) leave the selection, so its count is what is highlighted and acted on. Chained
     * behind the gestures being read; picked() waits for it.
     */
    const prune = (): void => {
      const { portalId, moduleId, filter } = get();
      if (portalId === null || moduleId === null) return;
      const serial = listSerial;
      selecting = selecting
        .then(async () => {
          for (;;) {
            // The selection as it is once the gestures ahead of this check have applied.
            const asOf = gestures;
            const asked = [...get().selection.ids.keys()];
            if (asked.length === 0) return;
            const held = new Set<string>();
            for (let first = 0; first < asked.length; first += PRUNE_IDS_CHUNK) {
              const listed = await api.records.listed({
                ...scope,
                portalId,
                moduleId,
                ...(filter === undefined ? {} : { filter }),
                ids: asked.slice(first, first + PRUNE_IDS_CHUNK),
              });
              if (serial !== listSerial) return;
              for (const id of listed) held.add(id);
            }
            // A click applied while the list was read (it did not wait: nothing else was being
            // read) may have picked again a record this answer calls gone: ask again about the
            // selection as it is now.
            if (asOf !== gestures) continue;
            const gone = asked.filter((id) => !held.has(id));
            set((s) => {
              // Left out of every row: kept left out (a sync may bring the record back), only
              // not counted. Picked: no longer picked.
              if (s.selection.kind === 'every') {
                return { selection: { ...s.selection, absent: new Set(gone) } };
              }
              if (gone.length === 0) return {};
              const ids = new Map(s.selection.ids);
              for (const id of gone) ids.delete(id);
              return { selection: { ...s.selection, ids } };
            });
            return;
          }
        })
        // The selection stays as it was: Copy and Bulk edit say what they could not find.
        .catch(() => undefined);
    };

    const pump = (): void => {
      const state = get();
      const { portalId, moduleId } = state;
      if (portalId === null || moduleId === null) return;
      const target = pending ?? { windows, generation: state.shownGeneration };
      const total = pending ? null : state.total;
      // A new list's total is unknown until its first window: ask for the screen's blocks.
      const next = target.windows.nextToFetch(
        wanted.first,
        wanted.last,
        total ?? wanted.last + 1,
        state.focused,
      );
      if (next === undefined) return;
      const { generation } = target;
      const list = target.windows;
      list.started(next);
      api.records
        .query({
          ...scope,
          portalId,
          moduleId,
          offset: next * BLOCK_ROWS,
          limit: BLOCK_ROWS,
          ...(state.filter === undefined ? {} : { filter: state.filter }),
          ...(state.sort === undefined ? {} : { sort: state.sort }),
        })
        .then(
          (result) => {
            list.finished(next, result.rows, wanted.first, get().focused);
            if (generation !== get().generation) return;
            if (pending && pending.generation === generation) {
              windows = pending.windows;
              const refresh = pending.refresh;
              pending = null;
              set((s) => ({
                ...(refresh ? {} : { announcedTotal: result.total }),
                listRefreshing: false,
                ...withinTotal(s, result.total),
                total: result.total,
                shownGeneration: generation,
                rowsVersion: s.rowsVersion + 1,
                listError: null,
                listLoading: false,
              }));
              if (refresh) prune();
            } else {
              set((s) => ({
                ...withinTotal(s, result.total),
                total: result.total,
                rowsVersion: s.rowsVersion + 1,
              }));
            }
            pump();
          },
          (error: unknown) => {
            list.finished(next, undefined, wanted.first, get().focused);
            if (generation !== get().generation) return;
            if (pending && pending.generation === generation) pending = null;
            set({ listError: describeError(error), listLoading: false, listRefreshing: false });
          },
        );
      pump();
    };

    /** Starts reading the list again (new module, filter or sort, or changed data). */
    const restart = (options: { keepPosition: boolean }): void => {
      const generation = get().generation + 1;
      // A refresh that comes while an asked-for list is still being read stays that list's
      // reading (busy, and its count told) rather than becoming a quiet refresh.
      const refresh = options.keepPosition && (pending === null || pending.refresh);
      pending = { windows: new RowWindows(), generation, refresh };
      if (!options.keepPosition) {
        listSerial += 1;
        const screen = wanted.last - wanted.first;
        wanted = { first: 0, last: screen };
      }
      set({
        generation,
        listLoading: true,
        listRefreshing: refresh,
        listError: null,
      });
      if (!options.keepPosition) {
        // What the last Copy said was of the rows selected in the list before: gone with them.
        set((s) => ({
          focused: 0,
          selection: NO_SELECTION,
          selectionNote: null,
          copied: null,
          scrollReset: s.scrollReset + 1,
        }));
      }
      pump();
    };

    /**
     * The open module's columns read again after a change: a status renamed in the Outbox (and
     * its discard) names the filter's choices, as the rows name it. Set only when they differ,
     * the column layout kept. A failed read keeps the columns shown: the list's own read, made
     * with it, says what failed.
     */
    const reloadColumns = async (portalId: string, moduleId: string): Promise<void> => {
      try {
        const columns = await api.records.columns({ ...scope, portalId, moduleId });
        const state = get();
        if (state.portalId !== portalId || state.moduleId !== moduleId) return;
        if (JSON.stringify(columns) === JSON.stringify(state.columns)) return;
        set({
          columns,
          layout: reconcileLayout(
            state.layout ?? readStorage(layoutKey(portalId, moduleId)),
            columns.fields,
          ),
        });
      } catch {
        // Kept as they were (above).
      }
    };

    /** Where the person left off, else a custom module: a built-in one has no records here. */
    const moduleToOpen = (modules: readonly RecordsModule[]): RecordsModule | undefined => {
      const last = readStorage(LAST_PLACE_KEY) as { moduleId?: string } | undefined;
      const custom = modules.filter((m) => !m.builtIn);
      return (
        modules.find((m) => m.id === last?.moduleId) ??
        custom.find((m) => m.records > 0) ??
        custom[0]
      );
    };

    const loadModules = async (portalId: string): Promise<RecordsModule[] | null> => {
      try {
        const modules = await api.records.modules({ ...scope, portalId });
        if (get().portalId === portalId) set({ modules, modulesError: null });
        return modules;
      } catch (error) {
        if (get().portalId === portalId) set({ modulesError: describeError(error) });
        return null;
      }
    };

    const loadRecent = async (portalId: string): Promise<void> => {
      // A backup has no recently viewed records of its own.
      if (snapshot) return;
      try {
        const recent = await api.records.recent({ portalId });
        if (get().portalId === portalId) set({ recent });
      } catch {
        // The recent list is a convenience: without it the workspace works as before.
      }
    };

    return {
      portals: null,
      portalsError: null,
      portalId: null,
      modules: null,
      modulesError: null,
      moduleId: null,
      columns: null,
      columnsError: null,
      layout: null,
      sort: undefined,
      filter: undefined,
      draft: EMPTY_DRAFT,
      filterOpen: false,
      total: null,
      generation: 0,
      shownGeneration: 0,
      rowsVersion: 0,
      listError: null,
      listLoading: false,
      listRefreshing: false,
      announcedTotal: null,
      scrollReset: 0,
      focused: 0,
      selection: NO_SELECTION,
      selecting: false,
      selectionNote: null,
      detail: null,
      searchText: '',
      searchHits: null,
      searchError: null,
      recent: [],
      saved: [],
      savedError: null,
      trashed: null,
      trashedError: null,
      snapshot,
      copied: null,
      copying: false,

      load: async () => {
        try {
          const portals = (await api.records.portals()).filter(
            (portal) => !snapshot || portal.id === snapshot.portalId,
          );
          if (snapshot && portals.length === 0) {
            throw new Error(
              `${snapshot.portalName} is no longer in the mirror, so its backup cannot be shown. Close the backup; sign in to the portal again to browse it.`,
            );
          }
          set({ portals, portalsError: null });
          const last = readStorage(LAST_PLACE_KEY) as { portalId?: string } | undefined;
          const current = get().portalId;
          const choice =
            portals.find((p) => p.id === current) ??
            portals.find((p) => p.id === last?.portalId) ??
            portals.find((p) => p.isDefault) ??
            portals[0];
          if (choice && choice.id !== current) await get().selectPortal(choice.id);
          else if (choice) await loadModules(choice.id);
        } catch (error) {
          set({ portalsError: describeError(error) });
        }
      },

      selectPortal: async (portalId) => {
        set({
          portalId,
          modules: null,
          modulesError: null,
          moduleId: null,
          columns: null,
          total: null,
          announcedTotal: null,
          detail: null,
          searchHits: null,
          searchText: '',
          recent: [],
        });
        windows = new RowWindows();
        pending = null;
        const modules = await loadModules(portalId);
        void loadRecent(portalId);
        if (!modules || get().portalId !== portalId) return;
        const choice = moduleToOpen(modules);
        if (choice) await get().selectModule(choice.id);
      },

      selectModule: async (moduleId) => {
        const { portalId } = get();
        if (portalId === null) return;
        remember({ portalId, moduleId });
        windows = new RowWindows();
        clearTimeout(applyTimer);
        set({
          moduleId,
          columns: null,
          columnsError: null,
          layout: null,
          sort: undefined,
          filter: undefined,
          draft: EMPTY_DRAFT,
          total: null,
          announcedTotal: null,
          saved: [],
          savedError: null,
          trashed: null,
          trashedError: null,
          listError: null,
        });
        // A built-in module's records are never mirrored: the view says what it is, nothing is read.
        if (get().modules?.find((m) => m.id === moduleId)?.builtIn) {
          // The previous module's reads still on their way must not land here.
          pending = null;
          listSerial += 1;
          set((s) => ({ generation: s.generation + 1, listLoading: false, listRefreshing: false }));
          return;
        }
        restart({ keepPosition: false });
        try {
          const [columns, saved] = await Promise.all([
            api.records.columns({ ...scope, portalId, moduleId }),
            api.records.savedFilters({ portalId, moduleId }),
          ]);
          if (get().moduleId !== moduleId || get().portalId !== portalId) return;
          set({
            columns,
            saved,
            layout: reconcileLayout(readStorage(layoutKey(portalId, moduleId)), columns.fields),
          });
        } catch (error) {
          if (get().moduleId === moduleId) set({ columnsError: describeError(error) });
        }
      },

      openFiltered: async (portalId, moduleId, filter) => {
        if (get().portalId !== portalId) await get().selectPortal(portalId);
        if (get().portalId !== portalId) return;
        await get().selectModule(moduleId);
        if (filter === undefined || get().moduleId !== moduleId) return;
        const parsed = parseFilter(filter);
        if (!parsed.ok) return;
        set({ draft: draftFromFilter(parsed.filter) });
        get().applyFilter(filter);
      },

      setSort: (key) => {
        const { columns, sort } = get();
        const field = columns?.fields.find((f) => f.key === key);
        if (!field?.sortable) return;
        set({
          sort:
            sort?.field === key
              ? { field: key, descending: !sort.descending }
              : { field: key, descending: false },
        });
        restart({ keepPosition: false });
      },

      setDraft: (draft, after = 0) => {
        clearTimeout(applyTimer);
        set({ draft });
        if (after === null) return;
        const fields = filterFieldsOf(get().columns);
        if (!checkDraft(draft, fields).ok) return;
        const text = filterText(draft, fields);
        if (after === 0) get().applyFilter(text);
        else applyTimer = setTimeout(() => get().applyFilter(text), after);
      },

      applyFilter: (text) => {
        if (text === get().filter) return;
        set({ filter: text });
        restart({ keepPosition: false });
      },

      loadSaved: (saved) => {
        const parsed = parseFilter(saved.filter);
        if (!parsed.ok) {
          // Stored filters were checked when saved; one that no longer reads says so, never nothing.
          const why = parsed.errors.map((error) => error.message).join(' ');
          set({
            savedError: `The saved filter "${saved.name}" can no longer be read (${why}); the list keeps its filter. Delete it and save the filter again.`,
          });
          return;
        }
        clearTimeout(applyTimer);
        set({ draft: draftFromFilter(parsed.filter) });
        get().applyFilter(saved.filter);
      },

      saveFilter: async (name) => {
        const { portalId, moduleId, draft, columns } = get();
        const text = filterText(draft, filterFieldsOf(columns));
        if (portalId === null || moduleId === null || text === undefined) return false;
        try {
          const saved = await api.records.saveFilter({ portalId, moduleId, name, filter: text });
          set({ saved, savedError: null });
          return true;
        } catch (error) {
          set({ savedError: describeError(error) });
          return false;
        }
      },

      deleteFilter: async (id) => {
        const { portalId, moduleId } = get();
        if (portalId === null || moduleId === null) return;
        try {
          set({
            saved: await api.records.deleteFilter({ portalId, moduleId, id }),
            savedError: null,
          });
        } catch (error) {
          set({ savedError: describeError(error) });
        }
      },

      setFilterOpen: (filterOpen) => set({ filterOpen }),

      showRows: (first, last) => {
        wanted = { first, last };
        pump();
      },

      row: (index) => windows.row(index),

      focusRow: (index, mode = 'only') => {
        const { total } = get();
        if (total === null || total === 0) return;
        const focused = Math.max(0, Math.min(total - 1, index));
        set({ focused });
        if (mode !== 'move') select({ mode, index: focused });
      },

      selectEverything: () => select({ mode: 'all' } as const),

      picked: async () => {
        await selecting;
        return pickedOf(get().selection);
      },

      copySelection: async (write) => {
        const state = get();
        const { portalId, moduleId, columns, layout } = state;
        if (portalId === null || moduleId === null || !columns || !layout || state.copying) return;
        const shown = layout.visible.flatMap((key) => columns.fields.filter((f) => f.key === key));
        const serial = listSerial;
        set({ copying: true });
        try {
          const picked = await get().picked();
          const { rows, gone } = await selectedRows(
            picked,
            get().total ?? 0,
            listedRows(portalId, moduleId),
          );
          if (listSerial !== serial) {
            throw new CopyRefused(
              'The list changed while the rows were read (a new filter, sort or module). Nothing was copied; select the rows again.',
            );
          }
          await write(rowsAsText(shown, rows, { timeZone: columns.timeZone }));
          set({
            copied: {
              message:
                `Copied ${rows.length.toLocaleString()} ${rows.length === 1 ? 'row' : 'rows'} with the header, tab-separated: paste into any spreadsheet.` +
                (gone > 0
                  ? ` ${gone.toLocaleString()} selected ${gone === 1 ? 'record is' : 'records are'} no longer in the list (deleted or moved to the recycle bin since) and ${gone === 1 ? 'was' : 'were'} left out.`
                  : ''),
              error: false,
            },
          });
        } catch (error) {
          const reason = describeError(error);
          set({
            copied: {
              message:
                error instanceof CopyRefused || error instanceof CallFailure
                  ? reason
                  : `The clipboard refused the rows (${reason}). Nothing was copied; try again, or export the view to a file.`,
              error: true,
            },
          });
        } finally {
          set({ copying: false });
        }
      },

      openRecord: async (recordId, options = {}) => {
        const { portalId } = get();
        if (portalId === null) return;
        const seq = ++detailSeq;
        const focusRequest = options.focus ? seq : 0;
        set((s) => ({
          detail: {
            recordId,
            data: s.detail?.recordId === recordId ? s.detail.data : null,
            columns: s.detail?.recordId === recordId ? s.detail.columns : null,
            loading: true,
            error: null,
            fetching: false,
            fetchError: null,
            focusRequest,
          },
        }));
        try {
          const data = await api.records.get({ ...scope, portalId, recordId });
          const { moduleId } = data.record;
          const columns =
            get().columns?.moduleId === moduleId
              ? null
              : await api.records.columns({ ...scope, portalId, moduleId });
          if (seq !== detailSeq) return;
          set({
            detail: {
              recordId,
              data,
              columns,
              loading: false,
              error: null,
              fetching: false,
              fetchError: null,
              focusRequest,
            },
          });
          if (snapshot) return;
          const recent = await api.records.viewed({ portalId, recordId });
          if (get().portalId === portalId) set({ recent });
        } catch (error) {
          if (seq !== detailSeq) return;
          set({
            detail: {
              recordId,
              data: null,
              columns: null,
              loading: false,
              error: describeError(error),
              fetching: false,
              fetchError: null,
              focusRequest,
            },
          });
        }
      },

      closeDetail: () => {
        detailSeq += 1;
        set({ detail: null });
      },

      fetchComments: async () => {
        const { portalId, detail } = get();
        // A backup's records are as they were: nothing is fetched into them.
        if (snapshot || portalId === null || !detail?.data) return;
        const { recordId } = detail;
        set({ detail: { ...detail, fetching: true, fetchError: null } });
        try {
          await api.sync.fetchComments({
            portalId,
            moduleId: detail.data.record.moduleId,
            recordId,
          });
          const data = await api.records.get({ ...scope, portalId, recordId });
          const now = get().detail;
          if (now?.recordId === recordId) set({ detail: { ...now, data, fetching: false } });
        } catch (error) {
          const now = get().detail;
          if (now?.recordId === recordId) {
            set({ detail: { ...now, fetching: false, fetchError: describeError(error) } });
          }
        }
      },

      search: async (text) => {
        const { portalId } = get();
        const seq = ++searchSeq;
        set({ searchText: text });
        if (portalId === null || text.trim() === '') {
          set({ searchHits: null, searchError: null });
          return;
        }
        try {
          const hits = await api.records.search({ ...scope, portalId, text });
          if (seq === searchSeq) set({ searchHits: hits, searchError: null });
        } catch (error) {
          if (seq === searchSeq) set({ searchHits: [], searchError: describeError(error) });
        }
      },

      clearSearch: () => {
        searchSeq += 1;
        set({ searchText: '', searchHits: null, searchError: null });
      },

      loadTrashed: async () => {
        const { portalId, moduleId } = get();
        if (portalId === null || moduleId === null) return;
        try {
          const trashed = await api.records.trashed({ ...scope, portalId, moduleId });
          if (get().moduleId === moduleId) set({ trashed, trashedError: null });
        } catch (error) {
          if (get().moduleId === moduleId) set({ trashedError: describeError(error) });
        }
      },

      toggleColumn: (key) => {
        const { layout, portalId, moduleId } = get();
        if (!layout || portalId === null || moduleId === null) return;
        const next = toggleColumn(layout, key);
        writeStorage(layoutKey(portalId, moduleId), next);
        set({ layout: next });
      },

      resizeColumn: (key, width) => {
        const { layout, portalId, moduleId } = get();
        if (!layout || portalId === null || moduleId === null) return;
        const next = { ...layout, widths: { ...layout.widths, [key]: clampWidth(width) } };
        writeStorage(layoutKey(portalId, moduleId), next);
        set({ layout: next });
      },

      resetColumns: () => {
        const { columns, portalId, moduleId } = get();
        if (!columns || portalId === null || moduleId === null) return;
        try {
          localStorage.removeItem(layoutKey(portalId, moduleId));
        } catch {
          // Nothing stored then.
        }
        set({ layout: reconcileLayout(undefined, columns.fields) });
      },

      changed: ({ portalId, moduleId }) => {
        // A backup's snapshot never changes; the live mirror's changes are not its own.
        if (snapshot) return;
        if (portalId !== get().portalId) {
          if (get().portals?.every((p) => p.id !== portalId)) void get().load();
          return;
        }
        // The engine sends a module's change at most once a second (src/main/bridge/pushRates.ts):
        // the open list and record follow at once.
        const state = get();
        const builtIn = state.modules?.find((m) => m.id === state.moduleId)?.builtIn ?? false;
        if (!builtIn && (moduleId === null || moduleId === state.moduleId)) {
          restart({ keepPosition: true });
          if (state.moduleId !== null) void reloadColumns(portalId, state.moduleId);
          if (state.detail) void state.openRecord(state.detail.recordId);
        }
        // The portal's module counts: one read for the changes of all its modules in a second.
        if (countsTimer !== undefined) return;
        countsTimer = setTimeout(() => {
          countsTimer = undefined;
          if (get().portalId !== portalId) return;
          void loadModules(portalId).then((modules) => {
            // A portal whose modules came with its first sync opens one of them.
            if (!modules || get().portalId !== portalId || get().moduleId !== null) return;
            const choice = moduleToOpen(modules);
            if (choice) void get().selectModule(choice.id);
          });
        }, COUNTS_REFRESH_MS);
      },
    };
  });
  return store;
}

export type RecordsStore = ReturnType<typeof createRecordsStore>;
