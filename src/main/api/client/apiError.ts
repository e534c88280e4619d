/**
 * A failed API call as a value: what kind of failure it is (which decides what the caller does),
 * the HTTP status and `errorCode`, the server's own message, the endpoint, and a message written
 * for the user (what happened, what was kept, what to do).
 *
 * - `auth`: the access token was refused, and refused again after one shared refresh (or the
 *   refresh itself failed): sign in again.
 * - `rate`: a 429 reached the client (the scheduler normally absorbs them): wait `retryAfterSeconds`.
 * - `transient`: 5xx, network error, timeout, connection reset, after the retries allowed.
 * - `permanent`: the service refused the request (4xx) or answered something unreadable: never
 *   retried, shown to the user.
 */

export type ApiErrorKind = 'auth' | 'rate' | 'transient' | 'permanent';

/** errorCodes of our own, for failures the server did not name. */
export const CLIENT_ERROR_CODES = {
  network: 'NETWORK_ERROR',
  timeout: 'TIMEOUT',
  malformed: 'MALFORMED_RESPONSE',
  refreshFailed: 'TOKEN_REFRESH_FAILED',
  unknown: 'UNKNOWN_ERROR',
} as const;

/** "INVALID_OAUTHTOKEN | 400 | Access token invalid or expired; regenerate." */
export const INVALID_OAUTHTOKEN = 'INVALID_OAUTHTOKEN';

export interface ApiEndpointRef {
  /** The client function, e.g. `updateEntity`. */
  name: string;
  /** Method and route template, e.g. `PATCH /api/v3/portal/{portal_id}/.../entities/{entity_id}`. */
  label: string;
}

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** The HTTP status, or null when no response arrived. */
  status: number | null;
  errorCode: string;
  message: string;
  serverMessage?: string | null;
  endpoint: ApiEndpointRef;
  retryAfterSeconds?: number | null;
  /** How many times the request was sent (or tried). */
  attempts?: number;
  /**
   * An earlier send of this call may have been applied (its answer was lost, or a 5xx came back)
   * before the client sent it again: a "does not exist" to a repeated DELETE is then most likely
   * what that first send left behind.
   */
  earlierSendMayHaveActed?: boolean;
  /** For malformed replies: what did not match. */
  problems?: string[];
  cause?: unknown;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly errorCode: string;
  readonly serverMessage: string | null;
  readonly endpoint: ApiEndpointRef;
  readonly retryAfterSeconds: number | null;
  readonly attempts: number;
  readonly earlierSendMayHaveActed: boolean;
  readonly problems: string[];

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.serverMessage = init.serverMessage ?? null;
    this.endpoint = init.endpoint;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.attempts = init.attempts ?? 1;
    this.earlierSendMayHaveActed = init.earlierSendMayHaveActed ?? false;
    this.problems = init.problems ?? [];
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** What an HTTP error status means for the caller. */
export function classifyStatus(status: number, errorCode: string | null): ApiErrorKind {
  if (status === 401 || (status === 400 && errorCode === INVALID_OAUTHTOKEN)) return 'auth';
  if (status === 429) return 'rate';
  // 408 Request Timeout is the server giving up on a slow request: as transient as a 503.
  if (status === 408) return 'transient';
  // "501 Not Supported" will not change by retrying; every other 5xx may.
  if (status >= 500 && status !== 501) return 'transient';
  return 'permanent';
}

/** A sentence ends with one full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** What the user can do about a refusal, by status. */
function refusalAdvice(status: number, errorCode: string | null): string {
  if (status === 403) {
    return 'Nothing was changed on the service. Sign in again and allow PortalDesk the access it asks for.';
  }
  if (status === 404) {
    return 'It may have been deleted on the service; refresh to see what is there now.';
  }
  if (status === 405 || status === 501 || errorCode === 'URL_RULE_NOT_CONFIGURED') {
    return 'Nothing was changed on the service. This service does not offer this operation; check that the service profile points at a v3 API.';
  }
  if (status === 409) return 'Nothing was changed on the service; refresh and try again.';
  return 'Nothing was changed on the service; correct it and try again.';
}

/**
 * "The service refused the change to 'Name': name is longer than 200 characters." `subject` is the
 * caller's words for what was attempted ("the change to 'Name'"); otherwise the table's action.
 */
export function refusalMessage(init: {
  status: number;
  errorCode: string | null;
  serverMessage: string | null;
  action: string;
  subject?: string;
}): string {
  const what = init.subject
    ? `The service refused ${init.subject}`
    : `The service refused to ${init.action}`;
  const why =
    init.serverMessage?.trim() ||
    `HTTP ${init.status}${init.errorCode ? ` ${init.errorCode}` : ''}`;
  return `${what}: ${sentence(why)} ${refusalAdvice(init.status, init.errorCode)}`;
}
