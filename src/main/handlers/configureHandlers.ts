import type { Handlers } from '../bridge/dispatcher';
import { UserFacingError } from '../bridge/dispatcher';
import { ConfigRefused, type ConfigureService } from '../configure/configureService';
import { type IntegrationFields, IntegrationUnavailable } from '../configure/integrationFields';
import { userFacingFor } from './userFacing';

type ConfigureRequest =
  | 'configure.modules'
  | 'configure.createModule'
  | 'configure.updateModule'
  | 'configure.setModuleActive'
  | 'configure.trashModule'
  | 'configure.recoverModule'
  | 'configure.deleteModule'
  | 'configure.layouts'
  | 'configure.createLayout'
  | 'configure.updateLayout'
  | 'configure.deleteLayout'
  | 'configure.putSection'
  | 'configure.deleteSection'
  | 'configure.removeLayoutField'
  | 'configure.placeField'
  | 'configure.fields'
  | 'configure.createField'
  | 'configure.updateField'
  | 'configure.fieldUsage'
  | 'configure.deleteField'
  | 'configure.integrationServices'
  | 'configure.integrationModules'
  | 'configure.integrationFields'
  | 'configure.fieldOptions'
  | 'configure.changeOptions';

/** The service's refusals are written for the user: pass them on as they are. */
export const userFacing = userFacingFor(ConfigRefused);

/** A portal's configuration: read with queued changes laid over; every change queued. */
export function configureHandlers(
  configure: ConfigureService,
  integrations: IntegrationFields,
): Pick<Handlers, ConfigureRequest> {
  const online =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await read(...args);
      } catch (error) {
        if (error instanceof IntegrationUnavailable) throw new UserFacingError(error.message);
        throw error;
      }
    };
  return {
    'configure.modules': userFacing(({ portalId }) => configure.modules(portalId)),
    'configure.createModule': userFacing((args) => configure.createModule(args)),
    'configure.updateModule': userFacing((args) => configure.updateModule(args)),
    'configure.setModuleActive': userFacing(({ portalId, moduleId, active }) =>
      configure.setModuleActive(portalId, moduleId, active),
    ),
    'configure.trashModule': userFacing(({ portalId, moduleId }) =>
      configure.trashModule(portalId, moduleId),
    ),
    'configure.recoverModule': userFacing(({ portalId, moduleId }) =>
      configure.recoverModule(portalId, moduleId),
    ),
    'configure.deleteModule': userFacing(({ portalId, moduleId, confirmName }) => {
      configure.deleteModule(portalId, moduleId, confirmName);
      return { queued: true as const };
    }),
    'configure.layouts': userFacing(({ portalId, moduleId }) =>
      configure.layouts(portalId, moduleId),
    ),
    'configure.createLayout': userFacing((args) => configure.createLayout(args)),
    'configure.updateLayout': userFacing((args) => configure.updateLayout(args)),
    'configure.deleteLayout': userFacing(({ portalId, moduleId, layoutId }) =>
      configure.deleteLayout(portalId, moduleId, layoutId),
    ),
    'configure.putSection': userFacing((args) => configure.putSection(args)),
    'configure.deleteSection': userFacing(({ portalId, moduleId, layoutId, sectionId }) =>
      configure.deleteSection(portalId, moduleId, layoutId, sectionId),
    ),
    'configure.removeLayoutField': userFacing(({ portalId, moduleId, layoutId, fieldKey }) =>
      configure.removeLayoutField(portalId, moduleId, layoutId, fieldKey),
    ),
    'configure.placeField': userFacing((args) => configure.placeField(args)),
    'configure.fields': userFacing(({ portalId, moduleId }) =>
      configure.fields(portalId, moduleId),
    ),
    'configure.createField': userFacing((args) => configure.createField(args)),
    'configure.updateField': userFacing((args) => configure.updateField(args)),
    'configure.fieldUsage': userFacing(({ portalId, moduleId, fieldId }) =>
      configure.fieldUsage(portalId, moduleId, fieldId),
    ),
    'configure.deleteField': userFacing(({ portalId, moduleId, fieldId, confirmName }) =>
      configure.deleteField(portalId, moduleId, fieldId, confirmName),
    ),
    'configure.fieldOptions': userFacing(({ portalId, moduleId, fieldId }) =>
      configure.fieldOptions(portalId, moduleId, fieldId),
    ),
    'configure.changeOptions': userFacing((args) => configure.changeOptions(args)),
    'configure.integrationServices': online(({ portalId }) => integrations.services(portalId)),
    'configure.integrationModules': online(({ portalId, serviceId }) =>
      integrations.modules(portalId, serviceId),
    ),
    'configure.integrationFields': online(({ portalId, serviceId, moduleId }) =>
      integrations.fields(portalId, serviceId, moduleId),
    ),
  };
}
