/**
 * A write the mirror refused (records of a module not mirrored yet, comments of a record that is
 * not there). The whole write was rolled back; the message says what to mirror first.
 */
export class MirrorWriteError extends Error {
  override name = 'MirrorWriteError';
}
