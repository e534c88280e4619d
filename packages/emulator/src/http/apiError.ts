/**
 * The errors the API answers with, from the spec's "HTTP status codes" and "errorCode" tables.
 * Error body shape is "not shown" in the spec; ours is `{ "errorCode", "message", "status" }`
 * (see packages/emulator/README.md).
 */
export type ErrorCode =
  | 'URL_RULE_NOT_CONFIGURED'
  | 'INVALID_OAUTHTOKEN'
  | 'INVALID_OAUTHSCOPE'
  | 'INVALID_INPUTSTREAM'
  | 'INVALID_METHOD'
  | 'INVALID_PARAMETER_VALUE'
  | 'RATE_LIMIT_EXCEEDED'
  | 'RESOURCE_NOT_FOUND'
  | 'INTERNAL_SERVER_ERROR'
  /** Ours: a request addressed to a name the emulator does not answer to (DNS rebinding). */
  | 'FORBIDDEN_HOST';

export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): { errorCode: ErrorCode; message: string; status: number } {
    return { errorCode: this.errorCode, message: this.message, status: this.status };
  }
}

export const apiErrors = {
  urlRuleNotConfigured: (path: string) =>
    new ApiError(400, 'URL_RULE_NOT_CONFIGURED', `Request URL is incorrect: no API at ${path}.`),
  invalidMethod: (method: string, path: string, allowed: string[]) =>
    new ApiError(405, 'INVALID_METHOD', `HTTP method ${method} is not valid for ${path}.`, {
      Allow: allowed.join(', '),
    }),
  invalidOauthToken: (why: string) =>
    new ApiError(
      400,
      'INVALID_OAUTHTOKEN',
      `Access token invalid or expired (${why}); regenerate it.`,
    ),
  missingScope: (needed: string) =>
    new ApiError(403, 'INVALID_OAUTHSCOPE', `The access token lacks the scope ${needed}.`),
  invalidInputStream: (why: string) =>
    new ApiError(400, 'INVALID_INPUTSTREAM', `Invalid input parameter in the request: ${why}.`),
  invalidParameter: (why: string) => new ApiError(400, 'INVALID_PARAMETER_VALUE', why),
  notFound: (what: string) => new ApiError(404, 'RESOURCE_NOT_FOUND', `${what} does not exist.`),
  internal: () =>
    new ApiError(
      500,
      'INTERNAL_SERVER_ERROR',
      'Unexpected server error; contact support at support@emulator.invalid.',
    ),
};
