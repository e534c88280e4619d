/**
 * A local list or search the mirror cannot answer as asked (unknown portal or module, a filter it
 * refuses, a field it cannot sort by, a window out of range). The message says what is wrong and
 * that the list was left as it was; `problems` lists each problem on its own for a form.
 */
export class RecordQueryError extends Error {
  override name = 'RecordQueryError';

  constructor(
    message: string,
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
  }
}
