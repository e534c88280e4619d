import { createStore } from 'zustand/vanilla';
import { controlActions, describeFailure } from '../../app/controlActions';
import type { Api } from '../../../../shared/ipc/contract';

/**
 * The state of an editor of one list the engine keeps (a module's statuses, a user field's users
 * and roles): read, kept current by configure and outbox events, and changed one queued change at
 * a time, each control's error kept under its own place (`load` for the list itself).
 */
export interface ChoicesState<View, Change> {
  /** The list with queued changes laid over; null until read. */
  view: View | null;
  errors: Partial<Record<string, string>>;
  busy: Partial<Record<string, boolean>>;
  reload(): Promise<void>;
  /** Queues one change; true once queued (the answer is laid over the list at once). */
  change(place: string, change: Change): Promise<boolean>;
  clearError(place: string): void;
  /** Follows configure.changed (for this portal) and outbox.changed; returns the unsubscribe. */
  listen(): () => void;
}

export function createChoicesStore<View, Change>(
  api: Api,
  portalId: string,
  read: () => Promise<View>,
  write: (change: Change) => Promise<View>,
) {
  return createStore<ChoicesState<View, Change>>()((set) => {
    const act = controlActions<string>(set);
    const load = async () => {
      try {
        const view = await read();
        set((state) => ({ view, errors: { ...state.errors, load: undefined } }));
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
      reading = load().finally(() => {
        reading = null;
        if (again) {
          again = false;
          void reload();
        }
      });
      return reading;
    };
    return {
      view: null,
      errors: {},
      busy: {},
      reload,
      change: async (place, change) =>
        (await act(place, async () => {
          set({ view: await write(change) });
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

export type ChoicesStore<View, Change> = ReturnType<typeof createChoicesStore<View, Change>>;
