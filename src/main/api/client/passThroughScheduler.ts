/**
 * A scheduler that sends at once, with no budget or priorities: for tests and for tools talking
 * to an emulator whose rate limit is off. The app uses the request scheduler.
 */
import type { ApiScheduler } from './apiScheduler';

export function passThroughScheduler(): ApiScheduler {
  return {
    schedule: ({ send, signal }) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return send(signal ?? new AbortController().signal);
    },
  };
}
