/**
 * A scheduler that sends at once, with no budget or priorities: for tests and for tools talking
 * to an emulator whose rate limit is off. The app uses the request scheduler. Like it, it tells
 * listeners how each send ended, so connectivity can read a connection through it too.
 */
import type { CallOutcome } from '../requestScheduler';
import type { ApiScheduler } from './apiScheduler';

export interface PassThroughScheduler extends ApiScheduler {
  onCallEnded(listener: (outcome: CallOutcome) => void): () => void;
}

export function passThroughScheduler(): PassThroughScheduler {
  const listeners = new Set<(outcome: CallOutcome) => void>();
  const ended = (outcome: CallOutcome) => {
    for (const listener of listeners) listener(outcome);
  };
  return {
    schedule: async ({ send, signal }) => {
      if (signal?.aborted) throw signal.reason;
      try {
        const response = await send(signal ?? new AbortController().signal);
        ended({ answered: true });
        return response;
      } catch (error) {
        ended({ answered: false, error });
        throw error;
      }
    },
    onCallEnded: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
