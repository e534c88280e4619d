/**
 * Settles on the event loop's next turn, after the I/O and messages waiting meanwhile: work that
 * runs in steps on a thread that also answers requests awaits it between steps.
 */
export const nextTurn = (): Promise<void> =>
  new Promise<void>((resolve) => {
    setImmediate(resolve);
  });
