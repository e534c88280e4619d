/**
 * The URL of an incoming request's target, or null when it is not one (`GET http://[`): Node's
 * HTTP server passes any request line through, and `new URL` throws on such text. Every server of
 * the engine reads its targets through here and answers 400, so no request line can end the
 * process. Pure.
 */
export function requestTarget(target: string | undefined, base: string): URL | null {
  try {
    return new URL(target ?? '/', base);
  } catch {
    return null;
  }
}

export const BAD_TARGET_MESSAGE =
  'The request target is not a valid address; nothing was done. Send a path such as /api/call/app.info.';
