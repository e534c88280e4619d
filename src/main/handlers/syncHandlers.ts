import type { Handlers } from '../bridge/dispatcher';
import { UserFacingError } from '../bridge/dispatcher';
import type { SyncService } from '../sync/syncService';

type SyncRequest =
  | 'sync.status'
  | 'sync.start'
  | 'sync.pause'
  | 'sync.resume'
  | 'sync.cancel'
  | 'sync.fetchComments';

/** Refusals of the sync service are written for the user; pass them on as such. */
function asUserError(error: unknown): never {
  throw new UserFacingError(error instanceof Error ? error.message : String(error));
}

export function syncHandlers(sync: SyncService): Pick<Handlers, SyncRequest> {
  return {
    'sync.status': () => sync.status(),
    'sync.start': (args) => {
      try {
        sync.start(args ?? {});
      } catch (error) {
        asUserError(error);
      }
      return sync.status();
    },
    'sync.pause': () => {
      sync.pause();
      return sync.status();
    },
    'sync.resume': () => {
      sync.resume();
      return sync.status();
    },
    'sync.cancel': () => {
      sync.cancel();
      return sync.status();
    },
    'sync.fetchComments': async (record) => {
      try {
        return await sync.fetchComments(record);
      } catch (error) {
        return asUserError(error);
      }
    },
  };
}
