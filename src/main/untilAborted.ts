/**
 * `promise`'s answer, or `signal`'s reason as soon as it aborts, whichever comes first: for a wait
 * that cannot itself be cancelled (the OS keychain, asked for a code while it waits to be
 * unlocked), so that a Cancel is not held up by it. The promise runs on; its late answer (or
 * failure) is dropped.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as unknown);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
