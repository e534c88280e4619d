import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../shared/ipc/api';
import type { Api, AppInfo } from '../../../shared/ipc/contract';
import type { Settings } from '../../../shared/ipc/settings';
import type { ConnectionState } from '../bridge/engineLink';
import type { SectionId } from './sections';

export interface ShellState {
  section: SectionId;
  info: AppInfo | null;
  settings: Settings | null;
  /** What went wrong loading the app's state, in words for the user. */
  loadError: string | null;
  /** A failed settings change, shown next to the control that made it. */
  settingsError: string | null;
  connection: ConnectionState;
  online: boolean;
  /** A passing message for the user (an action that was refused), until dismissed. */
  notice: string | null;
  notify(message: string | null): void;
  select(section: SectionId): void;
  load(): Promise<void>;
  changeSettings(patch: Partial<Settings>): Promise<void>;
  setConnection(state: ConnectionState): void;
  setOnline(online: boolean): void;
  settingsChanged(settings: Settings): void;
}

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function createShellStore(
  api: Api,
  initial: { connection: ConnectionState; online: boolean },
) {
  return createStore<ShellState>()((set) => ({
    section: 'records',
    info: null,
    settings: null,
    loadError: null,
    settingsError: null,
    connection: initial.connection,
    online: initial.online,
    notice: null,
    notify: (notice) => set({ notice }),
    select: (section) => set({ section }),
    load: async () => {
      try {
        const [info, settings] = await Promise.all([api.app.info(), api.settings.get()]);
        set({ info, settings, loadError: null });
      } catch (error) {
        set({ loadError: describe(error) });
      }
    },
    changeSettings: async (patch) => {
      try {
        set({ settings: await api.settings.set(patch), settingsError: null });
      } catch (error) {
        set({ settingsError: `Your change was not saved: ${describe(error)}` });
      }
    },
    setConnection: (connection) => set({ connection }),
    setOnline: (online) => set({ online }),
    settingsChanged: (settings) => set({ settings }),
  }));
}

export type ShellStore = ReturnType<typeof createShellStore>;
