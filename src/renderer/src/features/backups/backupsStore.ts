import { createStore } from 'zustand/vanilla';
import { controlActions, describeFailure } from '../../app/controlActions';
import type { Api } from '../../../../shared/ipc/contract';
import type {
  ArchiveDiff,
  BackupPortal,
  BackupScheduleSpec,
  BackupSnapshot,
  BackupsOverview,
  BackupView,
} from '../../../../shared/ipc/areas/backups';

/** Where an error is shown: next to the control that caused it. */
export type ErrorPlace = 'start' | `portal:${string}` | `backup:${string}` | 'load';

export interface BackupsState {
  overview: BackupsOverview | null;
  errors: Partial<Record<ErrorPlace, string>>;
  /** What the user's own request left beside a control (a cancel): shown neutrally. */
  notes: Partial<Record<ErrorPlace, string>>;
  /** Controls waiting for the engine, by the same keys as errors. */
  busy: Partial<Record<ErrorPlace, boolean>>;
  load(): Promise<void>;
  changed(payload: { backup: BackupView | null; portalId: string | null }): void;
  /** Resolves true when the backups started; the access code is not kept in this store. */
  start(args: {
    portalIds: string[];
    accessCode: string;
    attachmentNeeded: boolean;
    keepCode: boolean;
  }): Promise<boolean>;
  /**
   * A new backup of a backup's portal, in place of one that cannot be downloaded again (not a
   * backup, gone): its errors beside that backup; resolves true when it started.
   */
  backUpAgain(id: string, accessCode: string): Promise<boolean>;
  refreshHistory(portalId: string): Promise<void>;
  download(id: string, accessCode?: string): Promise<boolean>;
  /** Stops the download running now (paused): what arrived is kept for Download to resume. */
  cancelDownload(id: string): Promise<void>;
  verify(id: string, accessCode?: string): Promise<boolean>;
  /** Stops the verification running now; the file is kept as it was. */
  cancelVerify(id: string): Promise<void>;
  /** The last comparison of each backup with the mirror, by backup id. */
  diffs: Partial<Record<string, ArchiveDiff>>;
  /** Resolves true once compared, or cancelled (said in `notes`). */
  compare(id: string, accessCode?: string): Promise<boolean>;
  /** Backups being compared with the mirror now, by id. */
  comparing: Partial<Record<string, boolean>>;
  /** Stops the comparison running now; its own request then says it was cancelled. */
  cancelCompare(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  setSchedule(portalId: string, schedule: BackupScheduleSpec): Promise<boolean>;
  forgetCode(portalId: string): Promise<void>;
  /** Asks the keychain again for the portal's code (after the user unlocked it). */
  readKeychain(portalId: string): Promise<void>;
  showInFolder(id: string): Promise<void>;
  startDrag(id: string): void;
  downloadLink(id: string): Promise<{ path: string; fileName: string } | null>;
  clearError(place: ErrorPlace): void;
  /** The backup open read-only in the records workspace; null: the live mirror is shown. */
  browsing: BackupSnapshot | null;
  /** Records read so far into the snapshot of the backup being opened. */
  browseProgress: { id: string; records: number } | null;
  /** Whether the backup was opened for browsing, cancelled (said in `notes`), or failed. */
  browse(id: string, accessCode?: string): Promise<'opened' | 'cancelled' | 'failed'>;
  /** Stops opening a backup for browsing: what was read of it is deleted. */
  cancelBrowse(id: string): Promise<void>;
  /** Back to the live mirror: the snapshot is closed and deleted. */
  closeBrowse(): Promise<void>;
}

const describe = describeFailure;

function withBackup(overview: BackupsOverview, backup: BackupView): BackupsOverview {
  const index = overview.backups.findIndex((candidate) => candidate.id === backup.id);
  const backups = [...overview.backups];
  if (index === -1) backups.unshift(backup);
  else backups[index] = backup;
  return { ...overview, backups };
}

function withPortal(overview: BackupsOverview, portal: BackupPortal): BackupsOverview {
  return {
    ...overview,
    portals: overview.portals.map((candidate) =>
      candidate.portalId === portal.portalId ? portal : candidate,
    ),
  };
}

/** The Backups view's state: the engine's overview, kept current by `backups.changed`. */
export function createBackupsStore(api: Api) {
  let reloading: Promise<void> | null = null;
  const store = createStore<BackupsState>()((set, get) => {
    /**
     * Runs an action for one control: busy while it runs, its error beside it after; a note left
     * there by an earlier cancel goes as the next action starts.
     */
    const controlAct = controlActions<ErrorPlace>(set);
    const act = <T>(place: ErrorPlace, action: () => Promise<T>) => {
      set((state) => ({ notes: { ...state.notes, [place]: undefined } }));
      return controlAct(place, action);
    };
    let again = false;
    const reload = (): Promise<void> => {
      // Many changes at once (a history merge) are one read; a change during a read means one
      // more read after it, since the read in flight may have been answered before the change.
      if (reloading) {
        again = true;
        return reloading;
      }
      reloading = get()
        .load()
        .finally(() => {
          reloading = null;
          if (again) {
            again = false;
            void reload();
          }
        });
      return reloading;
    };
    /** A neutral note beside a control (a cancel). */
    const note = (place: ErrorPlace, words: string) =>
      set((state) => ({ notes: { ...state.notes, [place]: words } }));
    /** A cancel asked of the engine: its failure is said beside the control, like any other. */
    const cancel = async (place: ErrorPlace, asked: () => Promise<unknown>) => {
      try {
        await asked();
      } catch (error) {
        set((state) => ({ errors: { ...state.errors, [place]: describe(error) } }));
      }
    };
    return {
      overview: null,
      errors: {},
      notes: {},
      busy: {},
      diffs: {},
      comparing: {},
      compare: async (id, accessCode) => {
        const place = `backup:${id}` as const;
        set((state) => ({ comparing: { ...state.comparing, [id]: true } }));
        const answer = await act(place, () =>
          api.backups.compare({ id, ...(accessCode ? { accessCode } : {}) }),
        );
        set((state) => ({ comparing: { ...state.comparing, [id]: false } }));
        if (answer === null) return false;
        if ('cancelled' in answer) note(place, answer.cancelled);
        else set((state) => ({ diffs: { ...state.diffs, [id]: answer } }));
        return true;
      },
      cancelCompare: (id) => cancel(`backup:${id}`, () => api.backups.cancelCompare({ id })),
      load: async () => {
        try {
          const overview = await api.backups.overview();
          set((state) => ({ overview, errors: { ...state.errors, load: undefined } }));
        } catch (error) {
          set((state) => ({ errors: { ...state.errors, load: describe(error) } }));
        }
      },
      changed: ({ backup }) => {
        const { overview } = get();
        if (overview && backup) set({ overview: withBackup(overview, backup) });
        else void reload();
      },
      start: async (args) =>
        (await act('start', async () => {
          const { started } = await api.backups.start(args);
          const overview = get().overview;
          if (overview) {
            set({ overview: started.reduce(withBackup, overview) });
          }
          // A kept code changes the portals' rows.
          if (args.keepCode) await reload();
          return true;
        })) === true,
      backUpAgain: async (id, accessCode) =>
        (await act(`backup:${id}`, async () => {
          const backup = get().overview?.backups.find((candidate) => candidate.id === id);
          if (!backup) throw new Error('This backup is no longer listed; nothing was started.');
          const { started } = await api.backups.start({
            portalIds: [backup.portalId],
            accessCode,
            attachmentNeeded: backup.attachmentNeeded,
            keepCode: false,
          });
          const overview = get().overview;
          if (overview) set({ overview: started.reduce(withBackup, overview) });
          return true;
        })) === true,
      refreshHistory: async (portalId) => {
        const overview = await act(`portal:${portalId}`, () =>
          api.backups.refreshHistory({ portalId }),
        );
        if (overview) set({ overview });
      },
      download: async (id, accessCode) =>
        (await act(`backup:${id}`, async () => {
          const backup = await api.backups.download({ id, ...(accessCode ? { accessCode } : {}) });
          const overview = get().overview;
          if (overview) set({ overview: withBackup(overview, backup) });
          return true;
        })) === true,
      cancelDownload: async (id) => {
        await act(`backup:${id}`, async () => {
          const backup = await api.backups.cancelDownload({ id });
          const overview = get().overview;
          if (overview) set({ overview: withBackup(overview, backup) });
        });
      },
      verify: async (id, accessCode) =>
        (await act(`backup:${id}`, async () => {
          const backup = await api.backups.verify({ id, ...(accessCode ? { accessCode } : {}) });
          const overview = get().overview;
          if (overview) set({ overview: withBackup(overview, backup) });
          return true;
        })) === true,
      cancelVerify: async (id) => {
        await act(`backup:${id}`, async () => {
          const backup = await api.backups.cancelVerify({ id });
          const overview = get().overview;
          if (overview) set({ overview: withBackup(overview, backup) });
        });
      },
      remove: async (id) => {
        await act(`backup:${id}`, async () => {
          await api.backups.delete({ id });
          if (get().browsing?.backupId === id) set({ browsing: null });
          await reload();
        });
      },
      setSchedule: async (portalId, schedule) =>
        (await act(`portal:${portalId}`, async () => {
          const portal = await api.backups.setSchedule({ portalId, schedule });
          const overview = get().overview;
          if (overview) set({ overview: withPortal(overview, portal) });
          return true;
        })) === true,
      forgetCode: async (portalId) => {
        await act(`portal:${portalId}`, async () => {
          const portal = await api.backups.forgetCode({ portalId });
          const overview = get().overview;
          if (overview) set({ overview: withPortal(overview, portal) });
        });
      },
      readKeychain: async (portalId) => {
        await act(`portal:${portalId}`, async () => {
          const portal = await api.backups.readKeychain({ portalId });
          const overview = get().overview;
          if (overview) set({ overview: withPortal(overview, portal) });
        });
      },
      showInFolder: async (id) => {
        await act(`backup:${id}`, () => api.backups.showInFolder({ id }));
      },
      startDrag: (id) => {
        void act(`backup:${id}`, () => api.backups.startDrag({ id }));
      },
      downloadLink: (id) => act(`backup:${id}`, () => api.backups.downloadLink({ id })),
      clearError: (place) => set((state) => ({ errors: { ...state.errors, [place]: undefined } })),
      browsing: null,
      browseProgress: null,
      browse: async (id, accessCode) => {
        const place = `backup:${id}` as const;
        set({ browseProgress: { id, records: 0 } });
        const answer = await act(place, () =>
          api.backups.browse({ id, ...(accessCode ? { accessCode } : {}) }),
        );
        set((state) => ({
          browseProgress: state.browseProgress?.id === id ? null : state.browseProgress,
        }));
        if (answer === null) return 'failed';
        if ('cancelled' in answer) {
          note(place, answer.cancelled);
          return 'cancelled';
        }
        set({ browsing: answer });
        return 'opened';
      },
      cancelBrowse: (id) => cancel(`backup:${id}`, () => api.backups.closeBrowse({ id })),
      closeBrowse: async () => {
        const open = get().browsing;
        if (!open) return;
        set({ browsing: null });
        // The engine deletes it; a failure leaves a file the next start deletes.
        await api.backups.closeBrowse({ id: open.backupId }).catch(() => undefined);
      },
    };
  });
  api.on('backups.changed', (payload) => store.getState().changed(payload));
  api.on('backups.browseProgress', ({ id, records }) => {
    if (store.getState().browseProgress?.id === id)
      store.setState({ browseProgress: { id, records } });
  });
  return store;
}

export type BackupsStore = ReturnType<typeof createBackupsStore>;
