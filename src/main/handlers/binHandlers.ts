import type { Handlers } from '../bridge/dispatcher';
import { UserFacingError } from '../bridge/dispatcher';
import { BinRefused, type PortalBinService } from '../configure/portalBinService';

type BinRequest = 'bin.list' | 'bin.restore' | 'bin.delete' | 'bin.empty';

/** The service's refusals are written for the user: pass them on as they are. */
function userFacing<A extends unknown[], R>(
  handler: (...args: A) => Promise<R> | R,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof BinRefused) throw new UserFacingError(error.message);
      throw error;
    }
  };
}

/** The portal's recycle bin: read online (kept for offline), every change queued. */
export function binHandlers(bin: PortalBinService): Pick<Handlers, BinRequest> {
  return {
    'bin.list': userFacing((args) => bin.list(args)),
    'bin.restore': userFacing(({ portalId, items }) => bin.queueItems(portalId, 'restore', items)),
    'bin.delete': userFacing(({ portalId, items }) => bin.queueItems(portalId, 'delete', items)),
    'bin.empty': userFacing(({ portalId, confirmName }) => bin.empty(portalId, confirmName)),
  };
}
