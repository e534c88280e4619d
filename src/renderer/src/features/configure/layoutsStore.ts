import { createStore } from 'zustand/vanilla';
import { controlActions, describeFailure } from '../../app/controlActions';
import type { Api } from '../../../../shared/ipc/contract';
import type {
  ConfigField,
  ConfigLayouts,
  ConfigModule,
} from '../../../../shared/ipc/areas/configure';

export type LayoutType = 'public' | 'private';

/**
 * Where an error is shown: next to the control that caused it. `modules` and `load`: the panel's
 * reads; `create`: the New layout form; `rename:`, `type:`, `default:`, `delete:` a layout's own
 * controls; `addSection:` a layout's New section form; `section:`, `move:`, `deleteSection:` a
 * section's (layout id, then section id); `field:` a placed field's Remove (layout id, field key);
 * `fieldMove:` a placed field's Move up, Move down and Move to section (layout id, field key);
 * `addField:` a section's Add a field picker (layout id, section id).
 */
export type LayoutErrorPlace =
  | 'modules'
  | 'load'
  | 'create'
  | `rename:${string}`
  | `type:${string}`
  | `default:${string}`
  | `delete:${string}`
  | `addSection:${string}`
  | `section:${string}:${string}`
  | `move:${string}:${string}`
  | `deleteSection:${string}:${string}`
  | `field:${string}:${string}`
  | `fieldMove:${string}:${string}`
  | `addField:${string}:${string}`;

export interface NewLayout {
  name: string;
  type: LayoutType;
  /** Copy this layout's sections and fields; null: start with the service's default section. */
  referenceId: string | null;
}

export interface LayoutsState {
  portalId: string | null;
  /** The module whose layouts are on screen. */
  moduleId: string | null;
  /** The portal's active modules, for the picker; null until read. */
  modules: ConfigModule[] | null;
  /** The module's layouts with queued changes laid over; null until read (or while switching). */
  layouts: ConfigLayouts | null;
  /** The layout whose sections and preview are on screen. */
  selectedLayoutId: string | null;
  errors: Partial<Record<LayoutErrorPlace, string>>;
  /** Controls waiting for the engine, by the same keys as errors. */
  busy: Partial<Record<LayoutErrorPlace, boolean>>;
  /** Shows a portal's modules, and the layouts of `moduleId` (or of the first active module). */
  open(portalId: string, moduleId?: string | null): Promise<void>;
  selectModule(moduleId: string): Promise<void>;
  selectLayout(layoutId: string): void;
  /** Reads the module's layouts again (coalesced). */
  reload(): Promise<void>;
  /** `configure.changed`: reads modules and layouts again when it is about the portal on screen. */
  changed(payload: { portalId: string }): void;
  /** Each resolves to the engine's answer (laid over at once), null if refused. */
  create(layout: NewLayout): Promise<ConfigLayouts | null>;
  rename(layoutId: string, name: string): Promise<ConfigLayouts | null>;
  setType(layoutId: string, type: LayoutType): Promise<ConfigLayouts | null>;
  makeDefault(layoutId: string): Promise<ConfigLayouts | null>;
  deleteLayout(layoutId: string): Promise<ConfigLayouts | null>;
  addSection(layoutId: string, name: string): Promise<ConfigLayouts | null>;
  renameSection(layoutId: string, sectionId: string, name: string): Promise<ConfigLayouts | null>;
  /** `position`: the 1-based place the section moves to. */
  moveSection(layoutId: string, sectionId: string, position: number): Promise<ConfigLayouts | null>;
  deleteSection(layoutId: string, sectionId: string): Promise<ConfigLayouts | null>;
  removeField(layoutId: string, fieldKey: string): Promise<ConfigLayouts | null>;
  /**
   * Places a field not on the layout (`place`) or moves one on it (`move`) to a 1-based place of
   * a section; a refusal is kept at `place` (the control that asked).
   */
  placeField(
    where: { layoutId: string; sectionId: string; position: number },
    field: { key: string; mode: 'place' | 'move' },
    place: LayoutErrorPlace,
  ): Promise<ConfigLayouts | null>;
  /** The module's fields (for Add a field), read when asked; null when the read failed. */
  moduleFields(place: LayoutErrorPlace): Promise<ConfigField[] | null>;
  clearError(place: LayoutErrorPlace): void;
  /** Follows configure.changed and outbox.changed; returns the unsubscribe. */
  listen(): () => void;
}

const describe = describeFailure;

/** The default layout, else the first: what a module's records open with. */
function preferredLayout(layouts: ConfigLayouts): string | null {
  return (layouts.layouts.find((layout) => layout.isDefault) ?? layouts.layouts[0])?.id ?? null;
}

/** The Layouts panel's state: one module's layouts, kept current by configure and outbox events. */
export function createLayoutsStore(api: Api) {
  const store = createStore<LayoutsState>()((set, get) => {
    /** Runs an action for one control: busy while it runs, its error beside it after. */
    const act = controlActions<LayoutErrorPlace>(set);

    /** Shows an answer if it is still about the module on screen; keeps the selection if it can. */
    const show = (layouts: ConfigLayouts, select?: string) => {
      const { portalId, moduleId, selectedLayoutId } = get();
      if (layouts.portalId !== portalId || layouts.moduleId !== moduleId) return;
      const candidate = select ?? selectedLayoutId;
      const kept = layouts.layouts.some((layout) => layout.id === candidate) ? candidate : null;
      set({ layouts, selectedLayoutId: kept ?? preferredLayout(layouts) });
    };

    const readLayouts = async (portalId: string, moduleId: string) => {
      try {
        const layouts = await api.configure.layouts({ portalId, moduleId });
        show(layouts);
        if (get().moduleId === moduleId) {
          set((state) => ({ errors: { ...state.errors, load: undefined } }));
        }
      } catch (error) {
        if (get().portalId === portalId && get().moduleId === moduleId) {
          set((state) => ({ errors: { ...state.errors, load: describe(error) } }));
        }
      }
    };

    let reading: Promise<void> | null = null;
    let again = false;
    const reload = (): Promise<void> => {
      const { portalId, moduleId } = get();
      if (portalId === null || moduleId === null) return Promise.resolve();
      // A change during a read means one more read after it: the read in flight may predate it.
      if (reading) {
        again = true;
        return reading;
      }
      reading = readLayouts(portalId, moduleId).finally(() => {
        reading = null;
        if (again) {
          again = false;
          void reload();
        }
      });
      return reading;
    };

    /** Reads the portal's active modules; keeps the one on screen if it is still active. */
    const readModules = async (portalId: string, wanted: string | null) => {
      let modules: ConfigModule[];
      try {
        const answer = await api.configure.modules({ portalId });
        modules = answer.modules.filter((module) => module.state === 'active');
      } catch (error) {
        if (get().portalId === portalId) {
          set((state) => ({ errors: { ...state.errors, modules: describe(error) } }));
        }
        return;
      }
      if (get().portalId !== portalId) return;
      const moduleId = modules.some((module) => module.id === wanted)
        ? wanted
        : (modules[0]?.id ?? null);
      const switched = moduleId !== get().moduleId;
      set((state) => ({
        modules,
        moduleId,
        ...(switched ? { layouts: null, selectedLayoutId: null } : {}),
        errors: { ...state.errors, modules: undefined },
      }));
      await reload();
    };

    const moduleRef = () => {
      const { portalId, moduleId } = get();
      if (portalId === null || moduleId === null) throw new Error('Choose a module first.');
      return { portalId, moduleId };
    };
    const where = (layoutId: string) => ({ ...moduleRef(), layoutId });
    const answered = (layouts: ConfigLayouts, select?: string) => {
      show(layouts, select);
      return layouts;
    };

    return {
      portalId: null,
      moduleId: null,
      modules: null,
      layouts: null,
      selectedLayoutId: null,
      errors: {},
      busy: {},
      open: async (portalId, moduleId = null) => {
        if (portalId !== get().portalId) {
          set({ portalId, moduleId: null, modules: null, layouts: null, errors: {}, busy: {} });
        }
        await readModules(portalId, moduleId ?? get().moduleId);
      },
      selectModule: async (moduleId) => {
        if (moduleId === get().moduleId) return;
        set({ moduleId, layouts: null, selectedLayoutId: null, errors: {} });
        await reload();
      },
      selectLayout: (layoutId) => set({ selectedLayoutId: layoutId }),
      reload,
      changed: ({ portalId }) => {
        // A module may have been deactivated, renamed or created: the picker reads them again.
        if (portalId === get().portalId) void readModules(portalId, get().moduleId);
      },
      create: ({ name, type, referenceId }) =>
        act('create', async () => {
          const before = new Set(get().layouts?.layouts.map((layout) => layout.id));
          const layouts = await api.configure.createLayout({
            ...moduleRef(),
            name,
            type,
            referenceId,
          });
          // The new layout is the one the answer has and the list had not: show its sections.
          const created = layouts.layouts.find((layout) => !before.has(layout.id));
          return answered(layouts, created?.id);
        }),
      rename: (layoutId, name) =>
        act(`rename:${layoutId}`, async () =>
          answered(await api.configure.updateLayout({ ...where(layoutId), changes: { name } })),
        ),
      setType: (layoutId, type) =>
        act(`type:${layoutId}`, async () =>
          answered(await api.configure.updateLayout({ ...where(layoutId), changes: { type } })),
        ),
      makeDefault: (layoutId) =>
        act(`default:${layoutId}`, async () =>
          answered(
            await api.configure.updateLayout({
              ...where(layoutId),
              changes: { makeDefault: true },
            }),
          ),
        ),
      deleteLayout: (layoutId) =>
        act(`delete:${layoutId}`, async () =>
          answered(await api.configure.deleteLayout(where(layoutId))),
        ),
      addSection: (layoutId, name) =>
        act(`addSection:${layoutId}`, async () =>
          answered(await api.configure.putSection({ ...where(layoutId), name })),
        ),
      renameSection: (layoutId, sectionId, name) =>
        act(`section:${layoutId}:${sectionId}`, async () =>
          answered(await api.configure.putSection({ ...where(layoutId), sectionId, name })),
        ),
      moveSection: (layoutId, sectionId, position) =>
        act(`move:${layoutId}:${sectionId}`, async () => {
          const section = get()
            .layouts?.layouts.find((layout) => layout.id === layoutId)
            ?.sections.find((candidate) => candidate.id === sectionId);
          if (!section) throw new Error('That section is no longer on this layout.');
          // A move sends the name as it is: only the place changes.
          return answered(
            await api.configure.putSection({
              ...where(layoutId),
              sectionId,
              name: section.name,
              position,
            }),
          );
        }),
      deleteSection: (layoutId, sectionId) =>
        act(`deleteSection:${layoutId}:${sectionId}`, async () =>
          answered(await api.configure.deleteSection({ ...where(layoutId), sectionId })),
        ),
      removeField: (layoutId, fieldKey) =>
        act(`field:${layoutId}:${fieldKey}`, async () =>
          answered(await api.configure.removeLayoutField({ ...where(layoutId), fieldKey })),
        ),
      placeField: ({ layoutId, sectionId, position }, field, place) =>
        act(place, async () =>
          answered(
            await api.configure.placeField({
              ...where(layoutId),
              fieldKey: field.key,
              mode: field.mode,
              sectionId,
              position,
            }),
          ),
        ),
      moduleFields: (place) =>
        act(place, async () => (await api.configure.fields(moduleRef())).fields),
      clearError: (place) => set((state) => ({ errors: { ...state.errors, [place]: undefined } })),
      listen: () => {
        const off = [
          api.on('configure.changed', (payload) => get().changed(payload)),
          // A replay (sent, refused, given its server id) changes what the pending marks say.
          api.on('outbox.changed', () => {
            if (get().layouts) void get().reload();
          }),
        ];
        return () => off.forEach((unsubscribe) => unsubscribe());
      },
    };
  });
  return store;
}

export type LayoutsStore = ReturnType<typeof createLayoutsStore>;
