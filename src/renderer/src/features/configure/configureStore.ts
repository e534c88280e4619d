import { createStore } from 'zustand/vanilla';
import { controlActions, describeFailure } from '../../app/controlActions';
import type { Api } from '../../../../shared/ipc/contract';
import type {
  ConfigModule,
  ConfigModules,
  CreateModuleArgs,
  UpdateModuleArgs,
} from '../../../../shared/ipc/areas/configure';
import type { RecordsPortal } from '../../../../shared/ipc/areas/records';
import { createBinSlice, type BinErrorPlace, type BinSlice } from './binSlice';

/**
 * Where an error is shown: next to the control that caused it. `create`: the new module form's
 * submit; `edit:` a module's edit form; `delete:` its typed confirmation; `module:` its row's
 * other actions (activate, deactivate, move to the bin, recover); `bin:`: the recycle bin's
 * controls (binSlice.ts).
 */
export type ErrorPlace =
  'load' | 'create' | `edit:${string}` | `delete:${string}` | `module:${string}` | BinErrorPlace;

export type ModuleSettingsChanges = UpdateModuleArgs['changes'];
export type NewModuleSettings = Omit<CreateModuleArgs, 'portalId'>;

export interface ConfigureState extends BinSlice {
  /** Portals in the mirror; null until read. */
  portals: RecordsPortal[] | null;
  /** The portal on screen. */
  portalId: string | null;
  /** The portal's modules with queued changes laid over; null until read (or while switching). */
  modules: ConfigModules | null;
  errors: Partial<Record<ErrorPlace, string>>;
  /** Controls waiting for the engine, by the same keys as errors. */
  busy: Partial<Record<ErrorPlace, boolean>>;
  /**
   * Reads the portals (keeping the one on screen if it is still there), its modules and its bin
   * (from the service the first time, as kept here after).
   */
  load(): Promise<void>;
  selectPortal(portalId: string): Promise<void>;
  /** Reads the modules of the portal on screen again (coalesced). */
  reload(): Promise<void>;
  /** `configure.changed`: reads modules and bin again when it is about the portal on screen. */
  changed(payload: { portalId: string }): void;
  /** Each resolves to the engine's answer (the module with the change laid over), null if refused. */
  create(settings: NewModuleSettings): Promise<ConfigModule | null>;
  update(moduleId: string, changes: ModuleSettingsChanges): Promise<ConfigModule | null>;
  setActive(moduleId: string, active: boolean): Promise<ConfigModule | null>;
  trash(moduleId: string): Promise<ConfigModule | null>;
  recover(moduleId: string): Promise<ConfigModule | null>;
  /** Resolves true once the delete is queued. */
  remove(moduleId: string, confirmName: string): Promise<boolean>;
  clearError(place: ErrorPlace): void;
}

const describe = describeFailure;

function withModule(modules: ConfigModules, module: ConfigModule): ConfigModules {
  const index = modules.modules.findIndex((candidate) => candidate.id === module.id);
  const list = [...modules.modules];
  if (index === -1) list.push(module);
  else list[index] = module;
  return { ...modules, modules: list };
}

/**
 * The Configure view's state: one portal's modules and recycle bin, kept current by configure and
 * outbox events.
 */
export function createConfigureStore(api: Api) {
  const store = createStore<ConfigureState>()((set, get) => {
    /** Runs an action for one control: busy while it runs, its error beside it after. */
    const act = controlActions<ErrorPlace>(set);

    const readModules = async (portalId: string) => {
      try {
        const modules = await api.configure.modules({ portalId });
        // The user may have picked another portal while this one was read.
        if (get().portalId !== portalId) return;
        set((state) => ({ modules, errors: { ...state.errors, load: undefined } }));
      } catch (error) {
        if (get().portalId === portalId) {
          set((state) => ({ errors: { ...state.errors, load: describe(error) } }));
        }
      }
    };

    let reading: Promise<void> | null = null;
    let again = false;
    const reload = (): Promise<void> => {
      const portalId = get().portalId;
      if (portalId === null) return Promise.resolve();
      // A change during a read means one more read after it: the read in flight may predate it.
      if (reading) {
        again = true;
        return reading;
      }
      reading = readModules(portalId).finally(() => {
        reading = null;
        if (again) {
          again = false;
          void reload();
        }
      });
      return reading;
    };

    /** Lays the engine's answer over the list at once, so the queued change shows. */
    const answered = (module: ConfigModule | null) => {
      const modules = get().modules;
      if (module && modules) set({ modules: withModule(modules, module) });
      return module;
    };

    const portalOf = () => {
      const portalId = get().portalId;
      if (portalId === null) throw new Error('Choose a portal first.');
      return portalId;
    };

    return {
      ...createBinSlice(api, set, get, act, describe),
      portals: null,
      portalId: null,
      modules: null,
      errors: {},
      busy: {},
      load: async () => {
        let portals: RecordsPortal[];
        try {
          portals = await api.records.portals();
        } catch (error) {
          set((state) => ({ errors: { ...state.errors, load: describe(error) } }));
          return;
        }
        const current = get().portalId;
        const kept = portals.some((portal) => portal.id === current) ? current : null;
        const portalId =
          kept ?? (portals.find((portal) => portal.isDefault) ?? portals[0])?.id ?? null;
        set((state) => ({
          portals,
          portalId,
          ...(portalId === current ? {} : { modules: null, bin: null, binSelected: new Set() }),
          errors: { ...state.errors, load: undefined },
        }));
        await Promise.all([reload(), get().readBin(get().bin === null)]);
      },
      selectPortal: async (portalId) => {
        if (portalId === get().portalId) return;
        set({ portalId, modules: null, bin: null, binSelected: new Set(), errors: {} });
        await Promise.all([reload(), get().readBin(true)]);
      },
      reload,
      changed: ({ portalId }) => {
        if (portalId !== get().portalId) return;
        void reload();
        void get().readBin(false);
      },
      create: (settings) =>
        act('create', async () =>
          answered(await api.configure.createModule({ portalId: portalOf(), ...settings })),
        ),
      update: (moduleId, changes) =>
        act(`edit:${moduleId}`, async () =>
          answered(await api.configure.updateModule({ portalId: portalOf(), moduleId, changes })),
        ),
      setActive: (moduleId, active) =>
        act(`module:${moduleId}`, async () =>
          answered(await api.configure.setModuleActive({ portalId: portalOf(), moduleId, active })),
        ),
      trash: (moduleId) =>
        act(`module:${moduleId}`, async () => {
          const module = await api.configure.trashModule({ portalId: portalOf(), moduleId });
          // Null: a module created here and never sent is simply gone; the list says so.
          if (module === null) await reload();
          return answered(module);
        }),
      recover: (moduleId) =>
        act(`module:${moduleId}`, async () =>
          answered(await api.configure.recoverModule({ portalId: portalOf(), moduleId })),
        ),
      remove: async (moduleId, confirmName) =>
        (await act(`delete:${moduleId}`, async () => {
          await api.configure.deleteModule({ portalId: portalOf(), moduleId, confirmName });
          // The answer carries no module: what the list shows now is the engine's to say.
          await reload();
          return true;
        })) === true,
      clearError: (place) => set((state) => ({ errors: { ...state.errors, [place]: undefined } })),
    };
  });
  api.on('configure.changed', (payload) => store.getState().changed(payload));
  // A replay (sent, refused, given its server id) changes what the pending marks say.
  api.on('outbox.changed', () => {
    const state = store.getState();
    if (state.modules) void state.reload();
    // A sent restore or delete takes its item out of the bin; the pending marks change too.
    if (state.bin) void state.readBin(false);
  });
  return store;
}

export type ConfigureStore = ReturnType<typeof createConfigureStore>;
