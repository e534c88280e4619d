import { UserFacingError } from '../../bridge/dispatcher';

/** A request the sandbox refuses: the message says what happened and that nothing changed. */
export class RouterInputError extends UserFacingError {
  override name = 'RouterInputError';
}

/** A publisher, event, rule, target or event record that does not exist. */
export class RouterNotFoundError extends UserFacingError {
  override name = 'RouterNotFoundError';
}
