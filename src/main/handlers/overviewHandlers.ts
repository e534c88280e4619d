import type { Handlers } from '../bridge/dispatcher';
import { UserFacingError } from '../bridge/dispatcher';
import { PortalNotMirrored, type OverviewService } from '../overview/overviewService';

/** The portal overview: read from the mirror, nothing sent. */
export function overviewHandlers(overview: OverviewService): Pick<Handlers, 'overview.portal'> {
  return {
    'overview.portal': async ({ portalId }) => {
      try {
        return await overview.portal(portalId);
      } catch (error) {
        if (error instanceof PortalNotMirrored) throw new UserFacingError(error.message);
        throw error;
      }
    },
  };
}
