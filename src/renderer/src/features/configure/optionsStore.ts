import { createStore } from 'zustand/vanilla';
import { controlActions, describeFailure } from '../../app/controlActions';
import type { Api } from '../../../../shared/ipc/contract';
import type { ConfigOptions } from '../../../../shared/ipc/areas/configure';

/**
 * Where an error is shown: next to the control that caused it. `load`: the list; `add`: the add
 * box's submit; `rename:` an option's rename form; `move:` its up/down buttons; `remove`: the
 * removal preview's confirm button.
 */
export type OptionsErrorPlace = 'load' | 'add' | 'remove' | `rename:${string}` | `move:${string}`;

/** One change as changeOptions takes it (the field is the store's). */
export interface OptionsChange {
  add?: string[];
  rename?: { id: string; name: string }[];
  move?: { id: string; position: number };
  remove?: string[];
}

export interface OptionsState {
  /** The field's options with queued changes laid over; null until read. */
  options: ConfigOptions | null;
  errors: Partial<Record<OptionsErrorPlace, string>>;
  busy: Partial<Record<OptionsErrorPlace, boolean>>;
  /** Reads the options (coalesced: a change during a read reads once more after it). */
  reload(): Promise<void>;
  /** Queues one change; true once queued (the answer is laid over the list at once). */
  change(place: OptionsErrorPlace, change: OptionsChange): Promise<boolean>;
  clearError(place: OptionsErrorPlace): void;
  /** Follows configure.changed (for this portal) and outbox.changed; returns the unsubscribe. */
  listen(): () => void;
}

/** The options editor's state: one field's options, kept current by configure and outbox events. */
export function createOptionsStore(api: Api, portalId: string, moduleId: string, fieldId: string) {
  const ref = { portalId, moduleId, fieldId };
  return createStore<OptionsState>()((set) => {
    const act = controlActions<OptionsErrorPlace>(set);

    const read = async () => {
      try {
        const options = await api.configure.fieldOptions(ref);
        set((state) => ({ options, errors: { ...state.errors, load: undefined } }));
      } catch (error) {
        set((state) => ({ errors: { ...state.errors, load: describeFailure(error) } }));
      }
    };

    let reading: Promise<void> | null = null;
    let again = false;
    const reload = (): Promise<void> => {
      // A change during a read means one more read after it: the read in flight may predate it.
      if (reading) {
        again = true;
        return reading;
      }
      reading = read().finally(() => {
        reading = null;
        if (again) {
          again = false;
          void reload();
        }
      });
      return reading;
    };

    return {
      options: null,
      errors: {},
      busy: {},
      reload,
      change: async (place, change) =>
        (await act(place, async () => {
          set({ options: await api.configure.changeOptions({ ...ref, ...change }) });
          return true;
        })) === true,
      clearError: (place) => set((state) => ({ errors: { ...state.errors, [place]: undefined } })),
      listen: () => {
        const off = [
          api.on('configure.changed', (payload) => {
            if (payload.portalId === portalId) void reload();
          }),
          // A replay (sent, refused, given its server id) changes what the pending marks say.
          api.on('outbox.changed', () => void reload()),
        ];
        return () => off.forEach((unsubscribe) => unsubscribe());
      },
    };
  });
}

export type OptionsStore = ReturnType<typeof createOptionsStore>;
