import type { Handlers } from '../bridge/dispatcher';

import { BinRefused, type PortalBinService } from '../configure/portalBinService';
import { userFacingFor } from './userFacing';

type BinRequest = 'bin.list' | 'bin.restore' | 'bin.delete' | 'bin.empty';

/** The service's refusals are written for the user: pass them on as they are. */
const userFacing = userFacingFor(BinRefused);

/** The portal's recycle bin: read online (kept for offline), every change queued. */
export function binHandlers(bin: PortalBinService): Pick<Handlers, BinRequest> {
  return {
    'bin.list': userFacing((args) => bin.list(args)),
    'bin.restore': userFacing(({ portalId, items }) => bin.queueItems(portalId, 'restore', items)),
    'bin.delete': userFacing(({ portalId, items }) => bin.queueItems(portalId, 'delete', items)),
    'bin.empty': userFacing(({ portalId, confirmName }) => bin.empty(portalId, confirmName)),
  };
}
