/**
 * What a failed `fetch` (no HTTP answer) means: a timeout or a network error, in the user's words,
 * and whether the request may have reached the server, which decides whether a POST or PATCH may
 * be sent again without risking doing it twice.
 */

export interface NetworkFailure {
  errorCode: 'TIMEOUT' | 'NETWORK_ERROR';
  /** Short, for messages: "the connection was refused". */
  reason: string;
  /** False only when the request certainly never left this machine or was never accepted. */
  mayHaveReached: boolean;
}

/**
 * Failures before any byte of the request reached a server: refused or unroutable connections
 * and name lookups. A reset, a closed socket or a timeout can come after the server read it.
 */
const NOT_REACHED: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: "the service's address could not be found",
  EAI_AGAIN: "the service's address could not be looked up",
  ENETUNREACH: 'the network is unreachable',
  EHOSTUNREACH: 'the service is unreachable',
  EADDRNOTAVAIL: 'no network address is available',
  UND_ERR_CONNECT_TIMEOUT: 'the connection could not be opened in time',
};

const MAY_HAVE_REACHED: Record<string, string> = {
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed before the answer arrived',
  UND_ERR_CLOSED: 'the connection was closed before the answer arrived',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the service did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'the service stopped sending its answer',
};

/** Every error code in an error's cause chain (undici nests them; happy eyeballs aggregates). */
function codesOf(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 5) return [];
  const codes: string[] = [];
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') codes.push(code);
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested)) for (const inner of nested) codes.push(...codesOf(inner, depth + 1));
  codes.push(...codesOf((error as { cause?: unknown }).cause, depth + 1));
  return codes;
}

function isTimeout(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'TimeoutError'
  );
}

/**
 * Whether a failed send failed in the network (no answer from the service): a timeout, a known
 * network error code anywhere in its causes, or fetch's own "fetch failed". Not our own abort, a
 * token that could not be had, or a bug.
 */
export function isNetworkFailure(error: unknown): boolean {
  if (isTimeout(error)) return true;
  const codes = codesOf(error);
  if (
    codes.some((code) => Object.hasOwn(NOT_REACHED, code) || Object.hasOwn(MAY_HAVE_REACHED, code))
  ) {
    return true;
  }
  return error instanceof TypeError && error.message === 'fetch failed';
}

export function describeNetworkFailure(error: unknown): NetworkFailure {
  if (isTimeout(error)) {
    return {
      errorCode: 'TIMEOUT',
      reason: 'the service did not answer in time',
      mayHaveReached: true,
    };
  }
  const codes = codesOf(error);
  const reached = codes.find((code) => Object.hasOwn(MAY_HAVE_REACHED, code));
  if (reached) {
    return { errorCode: 'NETWORK_ERROR', reason: MAY_HAVE_REACHED[reached]!, mayHaveReached: true };
  }
  const unreached = codes.find((code) => Object.hasOwn(NOT_REACHED, code));
  if (unreached) {
    return { errorCode: 'NETWORK_ERROR', reason: NOT_REACHED[unreached]!, mayHaveReached: false };
  }
  return { errorCode: 'NETWORK_ERROR', reason: 'the network request failed', mayHaveReached: true };
}
