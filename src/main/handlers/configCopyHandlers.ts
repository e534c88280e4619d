import type { Handlers } from '../bridge/dispatcher';

import { ConfigRefused } from '../configure/configureService';
import type { ConfigCopyService } from '../configure/copy/configCopyService';
import { userFacingFor } from './userFacing';

type ConfigCopyRequest =
  'configure.exportConfiguration' | 'configure.planCopy' | 'configure.applyCopy';

/** Refusals are written for the user (a file that is not a configuration, a changed plan). */
const userFacing = userFacingFor(ConfigRefused);

/** Copying configuration between portals (or from a file) as a reviewed plan. */
export function configCopyHandlers(copy: ConfigCopyService): Pick<Handlers, ConfigCopyRequest> {
  return {
    'configure.exportConfiguration': userFacing(({ portalId, moduleIds }) =>
      copy.exportConfiguration(portalId, moduleIds),
    ),
    'configure.planCopy': userFacing(({ targetPortalId, source }) =>
      copy.plan(targetPortalId, source),
    ),
    'configure.applyCopy': userFacing(({ targetPortalId, source, fingerprint }) =>
      copy.apply(targetPortalId, source, fingerprint),
    ),
  };
}
