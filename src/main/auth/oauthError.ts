/**
 * A refusal from the accounts server (`{"error": "..."}`, which the service sends with HTTP 200),
 * or no usable answer at all. `message` is written for the user; `code` is the service's.
 */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    /** The service's error name (`invalid_code`, …), or `network` / `bad_reply` for ours. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
