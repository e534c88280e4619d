import type { Handlers } from '../bridge/dispatcher';
import type { ConfigureService } from '../configure/configureService';
import { userFacing } from './configureHandlers';

type ConfigureChoiceRequest =
  | 'configure.statuses'
  | 'configure.changeStatuses'
  | 'configure.fieldPeople'
  | 'configure.changePeople';

/** A module's statuses and a user field's users and roles: read with queued changes, queued. */
export function configureChoiceHandlers(
  configure: ConfigureService,
): Pick<Handlers, ConfigureChoiceRequest> {
  return {
    'configure.statuses': userFacing(({ portalId, moduleId }) =>
      configure.choices.statuses(portalId, moduleId),
    ),
    'configure.changeStatuses': userFacing((args) => configure.choices.changeStatuses(args)),
    'configure.fieldPeople': userFacing(({ portalId, moduleId, fieldId }) =>
      configure.choices.fieldPeople(portalId, moduleId, fieldId),
    ),
    'configure.changePeople': userFacing((args) => configure.choices.changePeople(args)),
  };
}
