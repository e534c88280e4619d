import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { Api } from '../../../../shared/ipc/contract';
import type {
  ConfigFields,
  ConfigLayouts,
  FieldSettings,
} from '../../../../shared/ipc/areas/configure';

/**
 * Where an error is shown: next to the control that caused it. `load`: the list; `layouts`: the
 * "place it on" pickers; `create`: the new field form's submit; `edit:` a field's edit form;
 * `usage:` its Delete… button (the usage could not be read); `delete:` its typed confirmation.
 */
export type FieldsErrorPlace =
  'load' | 'layouts' | 'create' | `edit:${string}` | `usage:${string}` | `delete:${string}`;

export interface FieldUsage {
  layouts: { id: string; name: string }[];
  records: number;
}

export interface NewField {
  type: string;
  settings: FieldSettings;
  layoutId: string;
  sectionId: string | null;
}

export interface FieldsState {
  portalId: string;
  moduleId: string;
  /** The module's fields with queued changes laid over; null until read. */
  fields: ConfigFields | null;
  /** The module's layouts and sections, for placing a new field; null until read. */
  layouts: ConfigLayouts | null;
  errors: Partial<Record<FieldsErrorPlace, string>>;
  /** Controls waiting for the engine, by the same keys as errors. */
  busy: Partial<Record<FieldsErrorPlace, boolean>>;
  /** Reads fields and layouts (coalesced: a change during a read reads once more after it). */
  reload(): Promise<void>;
  /** Each resolves to true once queued (the answer is laid over the list at once). */
  create(field: NewField): Promise<boolean>;
  update(fieldId: string, changes: Partial<FieldSettings>): Promise<boolean>;
  /** Where a field is used; null if it could not be read (the error is beside Delete…). */
  usage(fieldId: string): Promise<FieldUsage | null>;
  remove(fieldId: string, confirmName: string): Promise<boolean>;
  clearError(place: FieldsErrorPlace): void;
  /** Follows configure.changed (for this portal) and outbox.changed; returns the unsubscribe. */
  listen(): () => void;
}

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The Fields panel's state: one module's fields, kept current by configure and outbox events. */
export function createFieldsStore(api: Api, portalId: string, moduleId: string) {
  const ref = { portalId, moduleId };
  return createStore<FieldsState>()((set, get) => {
    /** Runs an action for one control: busy while it runs, its error beside it after. */
    const act = async <T>(place: FieldsErrorPlace, action: () => Promise<T>): Promise<T | null> => {
      set((state) => ({
        busy: { ...state.busy, [place]: true },
        errors: { ...state.errors, [place]: undefined },
      }));
      try {
        return await action();
      } catch (error) {
        set((state) => ({ errors: { ...state.errors, [place]: describe(error) } }));
        return null;
      } finally {
        set((state) => ({ busy: { ...state.busy, [place]: false } }));
      }
    };

    const readBoth = async () => {
      const [fields, layouts] = await Promise.allSettled([
        api.configure.fields(ref),
        api.configure.layouts(ref),
      ]);
      set((state) => ({
        ...(fields.status === 'fulfilled' ? { fields: fields.value } : {}),
        ...(layouts.status === 'fulfilled' ? { layouts: layouts.value } : {}),
        errors: {
          ...state.errors,
          load: fields.status === 'rejected' ? describe(fields.reason) : undefined,
          layouts: layouts.status === 'rejected' ? describe(layouts.reason) : undefined,
        },
      }));
    };

    let reading: Promise<void> | null = null;
    let again = false;
    const reload = (): Promise<void> => {
      // A change during a read means one more read after it: the read in flight may predate it.
      if (reading) {
        again = true;
        return reading;
      }
      reading = readBoth().finally(() => {
        reading = null;
        if (again) {
          again = false;
          void reload();
        }
      });
      return reading;
    };

    /** Lays the engine's answer over the list at once, so the queued change shows. */
    const answered = (fields: ConfigFields) => {
      set({ fields });
      return true;
    };

    return {
      portalId,
      moduleId,
      fields: null,
      layouts: null,
      errors: {},
      busy: {},
      reload,
      create: async ({ type, settings, layoutId, sectionId }) =>
        (await act('create', async () =>
          answered(
            await api.configure.createField({ ...ref, type, settings, layoutId, sectionId }),
          ),
        )) === true,
      update: async (fieldId, changes) =>
        (await act(`edit:${fieldId}`, async () =>
          answered(await api.configure.updateField({ ...ref, fieldId, changes })),
        )) === true,
      usage: (fieldId) =>
        act(`usage:${fieldId}`, () => api.configure.fieldUsage({ ...ref, fieldId })),
      remove: async (fieldId, confirmName) =>
        (await act(`delete:${fieldId}`, async () =>
          answered(await api.configure.deleteField({ ...ref, fieldId, confirmName })),
        )) === true,
      clearError: (place) => set((state) => ({ errors: { ...state.errors, [place]: undefined } })),
      listen: () => {
        const off = [
          api.on('configure.changed', (payload) => {
            if (payload.portalId === get().portalId) void reload();
          }),
          // A replay (sent, refused, given its server id) changes what the pending marks say.
          api.on('outbox.changed', () => void reload()),
        ];
        return () => off.forEach((unsubscribe) => unsubscribe());
      },
    };
  });
}

export type FieldsStore = ReturnType<typeof createFieldsStore>;
