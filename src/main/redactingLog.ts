import { redactSecrets } from './auth/redactSecrets';

export interface EngineLog {
  warn(message: string): void;
  error(message: string, error: unknown): void;
}

/**
 * The engine's one log: every line (and an error's message and stack) passes redactSecrets, so no
 * area's log can leak a token, a code or a client secret, whatever it was given to print.
 */
export function redactingLog(inner: EngineLog = console): EngineLog {
  const describe = (error: unknown): string =>
    error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return {
    warn: (message) => inner.warn(redactSecrets(message)),
    error: (message, error) => inner.error(redactSecrets(message), redactSecrets(describe(error))),
  };
}
