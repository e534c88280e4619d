/**
 * Waits `ms`, or less when `signal` aborts: then it rejects with the signal's own reason (what
 * the caller aborted with, not a generic AbortError), so a closing service sees its own error.
 * One for the API client's retry waits, the token manager's refresh timer and backups' polls.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
