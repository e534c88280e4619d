/**
 * What one API call says about the connection to the service (pure): an HTTP answer of any
 * status, 429 and 5xx included, came from the service; a send that failed in the network (no
 * answer) says it could not be reached. Anything else says nothing: our own abort (a cancelled
 * sync, a closing app), a token that could not be had, a bug.
 */
import { isNetworkFailure } from '../api/client/networkFailure';

export type Reachability = 'reached' | 'unreachable';

/** A send that failed without an answer: unreachable, or null when it tells nothing. */
export function reachabilityOfFailure(error: unknown): Reachability | null {
  return isNetworkFailure(error) ? 'unreachable' : null;
}
