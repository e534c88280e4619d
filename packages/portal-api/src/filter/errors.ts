import type { FilterError } from './types';

/** `path: message`, one line per problem (the form CallError.issues uses). */
export function formatFilterErrors(errors: readonly FilterError[]): string[] {
  return errors.map((error) => (error.path ? `${error.path}: ${error.message}` : error.message));
}

/**
 * Thrown by compileFilter when the filter does not pass parseFilter and checkFilter, or the
 * context lacks what the filter needs. Callers are expected to validate first and answer the
 * client with those errors; reaching this is a bug or a missing context, so it throws rather than
 * returning a result every caller would have to unwrap.
 */
export class FilterCompileError extends Error {
  readonly errors: FilterError[];

  constructor(errors: FilterError[]) {
    super(`The filter cannot be compiled: ${formatFilterErrors(errors).join('; ')}`);
    this.name = 'FilterCompileError';
    this.errors = errors;
  }
}
