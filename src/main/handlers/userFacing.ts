import { UserFacingError } from '../bridge/dispatcher';

/** A class of errors whose messages are written for the user (a service's refusals). */
type Refusal = abstract new (...args: never[]) => Error;

/**
 * Wraps handlers so that the given refusals reach the user as they are (UserFacingError), and
 * anything else stays an internal error the dispatcher logs and words itself. A handler may
 * answer at once or with a promise: a refusal thrown at once and one rejected later are passed
 * on alike (a wrapper that caught only one of the two let the other through as an internal
 * error).
 */
export function userFacingFor(...refusals: readonly Refusal[]) {
  const passOn = (error: unknown): never => {
    if (error instanceof Error && refusals.some((refusal) => error instanceof refusal)) {
      throw new UserFacingError(error.message);
    }
    throw error;
  };
  return <A extends unknown[], R>(handler: (...args: A) => R) =>
    (...args: A): R => {
      try {
        const answer = handler(...args);
        return (answer instanceof Promise ? answer.catch(passOn) : answer) as R;
      } catch (error) {
        return passOn(error);
      }
    };
}
