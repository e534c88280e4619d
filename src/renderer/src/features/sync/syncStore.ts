import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { Api } from '../../../../shared/ipc/contract';
import type { SyncStatus } from '../../../../shared/ipc/areas/sync';

export interface SyncState {
  status: SyncStatus | null;
  /** Portal names by id, for rows that only carry an id. */
  portalNames: Record<string, string>;
  /** Module names by `portalId/moduleId`, for rows of modules no run reports on now. */
  moduleNames: Record<string, string>;
  /** The last refused action, in the user's words. */
  error: string | null;
  busy: boolean;
  load(): Promise<void>;
  received(status: SyncStatus): void;
  syncNow(args?: { accountId?: string; portalId?: string; reconcile?: boolean }): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  cancel(): Promise<void>;
}

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The Sync view's and status bar's state: the engine's pushed snapshots plus actions. */
export function createSyncStore(api: Api) {
  const store = createStore<SyncState>()((set, get) => {
    const act = async (action: () => Promise<SyncStatus>) => {
      set({ busy: true, error: null });
      try {
        get().received(await action());
      } catch (error) {
        set({ error: describe(error) });
      } finally {
        set({ busy: false });
      }
    };
    const names = async () => {
      try {
        const portals = await api.records.portals();
        set({ portalNames: Object.fromEntries(portals.map((p) => [p.id, p.name])) });
        const modules = await Promise.all(
          portals.map(async (portal) =>
            (await api.records.modules({ portalId: portal.id })).map(
              (module) => [`${portal.id}/${module.id}`, module.pluralName] as const,
            ),
          ),
        );
        set({ moduleNames: Object.fromEntries(modules.flat()) });
      } catch {
        // Names are a nicety: rows fall back to what the run reported.
      }
    };
    return {
      status: null,
      portalNames: {},
      moduleNames: {},
      error: null,
      busy: false,
      load: async () => {
        try {
          set({ status: await api.sync.status(), error: null });
        } catch (error) {
          set({ error: describe(error) });
        }
        await names();
      },
      received: (status) => {
        const previous = get().status;
        set({ status });
        // A run that just ended may have brought new portals.
        if (previous && previous.running.length > status.running.length) void names();
      },
      syncNow: (args) => act(() => api.sync.start(args)),
      pause: () => act(() => api.sync.pause()),
      resume: () => act(() => api.sync.resume()),
      cancel: () => act(() => api.sync.cancel()),
    };
  });
  api.on('sync.status', (status) => store.getState().received(status));
  return store;
}

export type SyncStore = ReturnType<typeof createSyncStore>;
