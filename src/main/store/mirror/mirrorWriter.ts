import type { Mirror } from './mirror';

/**
 * The mirror's writes a sync makes, by repository: what the writer thread runs for it
 * (mirrorWriterWorker.ts) and nothing else. Reads stay on the engine's connection.
 */
export const MIRROR_WRITES = {
  records: ['upsertRecordPage', 'upsertRecords', 'writeCursor', 'deleteRecordsNotIn'],
  metadata: [
    'replaceAccountPortals',
    'upsertPortals',
    'upsertUsers',
    'replaceModules',
    'replaceFieldsConfiguration',
    'replaceFieldOptions',
    'replacePortalRoles',
  ],
  comments: ['replaceRecordComments'],
  fullText: ['flush'],
} as const;

export type MirrorWriteTarget = keyof typeof MIRROR_WRITES;
export type MirrorWriteMethod<T extends MirrorWriteTarget> = (typeof MIRROR_WRITES)[T][number];

type Later<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;

/**
 * Where a sync writes the mirror: each of MIRROR_WRITES, answering what the repository's own
 * method answers, once it is stored. Two of them: on the engine's own connection (inline, below),
 * and on a thread with a connection of its own (MirrorWriterThread), so that storing and
 * indexing a million records never holds up the engine's thread, which answers the UI.
 */
export type MirrorWriter = {
  [T in MirrorWriteTarget]: {
    [M in MirrorWriteMethod<T>]: Later<Mirror[T][M & keyof Mirror[T]]>;
  };
};

/** Builds a MirrorWriter from one function that runs a write. */
export function mirrorWriterOf(
  run: (target: MirrorWriteTarget, method: string, args: unknown[]) => Promise<unknown>,
): MirrorWriter {
  const writer: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [target, methods] of Object.entries(MIRROR_WRITES)) {
    const forTarget: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const method of methods) {
      forTarget[method] = (...args: unknown[]) => run(target as MirrorWriteTarget, method, args);
    }
    writer[target] = forTarget;
  }
  return writer as unknown as MirrorWriter;
}

/** Runs a write of MIRROR_WRITES on `mirror`; refuses any other name. */
export function runMirrorWrite(
  mirror: Mirror,
  target: string,
  method: string,
  args: readonly unknown[],
): unknown {
  const methods = (MIRROR_WRITES as Record<string, readonly string[]>)[target];
  if (!methods?.includes(method)) throw new Error(`${target}.${method} is not a mirror write`);
  const repository = mirror[target as MirrorWriteTarget] as unknown as Record<
    string,
    (...args: readonly unknown[]) => unknown
  >;
  return repository[method]!(...args);
}

/** Writes on the mirror's own connection, at once (tests, and the fallback of the thread). */
export function inlineMirrorWriter(mirror: Mirror): MirrorWriter {
  return mirrorWriterOf(async (target, method, args) =>
    runMirrorWrite(mirror, target, method, args),
  );
}
