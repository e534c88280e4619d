/**
 * Actions run for one control of a view (a button, a form): busy while they run, their error kept
 * beside that control after, in the engine's words. The stores of the Backups and Configure views
 * keep `busy` and `errors` by the same keys (the place of the control).
 */
import { CallFailure } from '../../../shared/ipc/api';

export function describeFailure(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export interface ControlState<Place extends string> {
  errors: Partial<Record<Place, string>>;
  busy: Partial<Record<Place, boolean>>;
}

type SetState<Place extends string> = (
  update: (state: ControlState<Place>) => Partial<ControlState<Place>>,
) => void;

/** `act(place, action)`: resolves to the action's result, or null when it failed (error kept). */
export function controlActions<Place extends string>(set: SetState<Place>) {
  return async <T>(place: Place, action: () => Promise<T>): Promise<T | null> => {
    set((state) => ({
      busy: { ...state.busy, [place]: true },
      errors: { ...state.errors, [place]: undefined },
    }));
    try {
      return await action();
    } catch (error) {
      set((state) => ({ errors: { ...state.errors, [place]: describeFailure(error) } }));
      return null;
    } finally {
      set((state) => ({ busy: { ...state.busy, [place]: false } }));
    }
  };
}
