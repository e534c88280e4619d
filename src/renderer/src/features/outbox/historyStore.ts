/**
 * The Outbox's "Sent" view state: a page of the history for a search and a kind, read again when
 * the outbox changes while the view is open, and the export of what matches.
 */
import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { Api } from '../../../../shared/ipc/contract';
import type {
  HistoryEntry,
  HistoryFormat,
  HistoryQuery,
} from '../../../../shared/ipc/areas/outboxHistory';
import { KIND_GROUPS } from './historyFormat';

/** Ours: rows a page shows (the contract allows up to HISTORY_PAGE_MAX). */
export const HISTORY_PAGE = 100;

export interface HistoryState {
  text: string;
  /** A KIND_GROUPS id. */
  kindGroup: string;
  entries: HistoryEntry[];
  total: number;
  offset: number;
  loaded: boolean;
  /** The last read's failure, in the user's words. */
  error: string | null;
  exporting: HistoryFormat | null;
  exportError: string | null;
  exported: string | null;
  /** The view is on screen: outbox changes read the page again. */
  active: boolean;
  setActive(active: boolean): void;
  search(text: string): Promise<void>;
  setKindGroup(id: string): Promise<void>;
  goTo(offset: number): Promise<void>;
  refresh(): Promise<void>;
  exportAs(format: HistoryFormat): Promise<{ fileName: string; text: string } | null>;
}

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function createHistoryStore(api: Api) {
  let reads = 0;
  const store = createStore<HistoryState>()((set, get) => {
    const query = (): HistoryQuery => {
      const { text, kindGroup } = get();
      const kinds = KIND_GROUPS.find((g) => g.id === kindGroup)?.kinds ?? null;
      return { ...(text.trim() !== '' ? { text } : {}), ...(kinds ? { kinds } : {}) };
    };
    const read = async (offset: number) => {
      const seq = ++reads;
      try {
        const page = await api.outbox.history({ ...query(), offset, limit: HISTORY_PAGE });
        if (seq !== reads) return; // a newer search answered (or will) instead
        // A page emptied by the purge or a narrower search: show the last one that has rows.
        if (page.entries.length === 0 && page.total > 0 && offset > 0) {
          await read(Math.floor((page.total - 1) / HISTORY_PAGE) * HISTORY_PAGE);
          return;
        }
        set({ ...page, loaded: true, error: null });
      } catch (error) {
        if (seq === reads) set({ error: describe(error), loaded: true });
      }
    };
    return {
      text: '',
      kindGroup: 'all',
      entries: [],
      total: 0,
      offset: 0,
      loaded: false,
      error: null,
      exporting: null,
      exportError: null,
      exported: null,
      active: false,
      setActive: (active) => set({ active }),
      search: (text) => {
        set({ text });
        return read(0);
      },
      setKindGroup: (id) => {
        set({ kindGroup: id });
        return read(0);
      },
      goTo: (offset) => read(Math.max(0, offset)),
      refresh: () => read(get().offset),
      exportAs: async (format) => {
        set({ exporting: format, exportError: null, exported: null });
        try {
          const file = await api.outbox.exportHistory({ ...query(), format });
          set({
            exported: `Saved ${file.fileName}: ${file.rows.toLocaleString('en-US')} sent change${file.rows === 1 ? '' : 's'}.`,
          });
          return file;
        } catch (error) {
          set({ exportError: describe(error) });
          return null;
        } finally {
          set({ exporting: null });
        }
      },
    };
  });
  api.on('outbox.changed', () => {
    if (store.getState().active) void store.getState().refresh();
  });
  return store;
}

export type HistoryStore = ReturnType<typeof createHistoryStore>;
