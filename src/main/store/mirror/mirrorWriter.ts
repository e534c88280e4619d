import { RecordPages } from '../../sync/recordPages';
import type { Mirror } from './mirror';

/**
 * The mirror's writes a sync makes, by repository: what the writer thread runs for it
 * (mirrorWriterWorker.ts) and nothing else. Reads stay on the engine's connection.
 */
export const MIRROR_WRITES = {
  records: [
    'upsertRecordPage',
    'upsertRecords',
    'writeCursor',
    'deleteRecordsNotIn',
    'relabelOptions',
    'clearFieldValues',
  ],
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

/**
 * Record pages read, kept and stored where the writes run (sync/recordPages.ts), so that a sync's
 * records never pass through the engine's thread.
 */
export const PAGE_WRITES = [
  'read',
  'upsertPage',
  'upsertRecords',
  'release',
  'releasePull',
  // Not a write: how many pages are held, so tests can tell a finished sync let go of them all.
  'heldPages',
] as const;

export type MirrorWriteTarget = keyof typeof MIRROR_WRITES;
export type MirrorWriteMethod<T extends MirrorWriteTarget> = (typeof MIRROR_WRITES)[T][number];
/** Every target a writer runs: the mirror's repositories, and the record pages it holds. */
export type WriteTarget = MirrorWriteTarget | 'pages';

/** What the writes run on: a connection's Mirror and the record pages read for it. */
export interface WriteTargets {
  mirror: Mirror;
  pages: RecordPages;
}

export function writeTargetsOf(mirror: Mirror): WriteTargets {
  return { mirror, pages: new RecordPages(mirror) };
}

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
} & {
  pages: { [M in (typeof PAGE_WRITES)[number]]: Later<RecordPages[M]> };
};

/** Builds a MirrorWriter from one function that runs a write. */
export function mirrorWriterOf(
  run: (target: WriteTarget, method: string, args: unknown[]) => Promise<unknown>,
): MirrorWriter {
  const writer: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  const targets: [string, readonly string[]][] = [
    ...Object.entries(MIRROR_WRITES),
    ['pages', PAGE_WRITES],
  ];
  for (const [target, methods] of targets) {
    const forTarget: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const method of methods) {
      forTarget[method] = (...args: unknown[]) => run(target as WriteTarget, method, args);
    }
    writer[target] = forTarget;
  }
  return writer as unknown as MirrorWriter;
}

/** Runs a write of MIRROR_WRITES or PAGE_WRITES on `targets`; refuses any other name. */
export function runMirrorWrite(
  targets: WriteTargets,
  target: string,
  method: string,
  args: readonly unknown[],
): unknown {
  if (target === 'pages') {
    if (!(PAGE_WRITES as readonly string[]).includes(method)) {
      throw new Error(`pages.${method} is not a mirror write`);
    }
    const pages = targets.pages as unknown as Record<string, (...a: unknown[]) => unknown>;
    return pages[method]!.apply(targets.pages, [...args]);
  }
  const methods = Object.hasOwn(MIRROR_WRITES, target)
    ? (MIRROR_WRITES as Record<string, readonly string[]>)[target]
    : undefined;
  if (!methods?.includes(method)) throw new Error(`${target}.${method} is not a mirror write`);
  const repository = targets.mirror[target as MirrorWriteTarget] as unknown as Record<
    string,
    (...args: readonly unknown[]) => unknown
  >;
  return repository[method]!(...args);
}

/** Writes on the mirror's own connection, at once (tests, and the fallback of the thread). */
export function inlineMirrorWriter(mirror: Mirror): MirrorWriter {
  const targets = writeTargetsOf(mirror);
  return mirrorWriterOf(async (target, method, args) =>
    runMirrorWrite(targets, target, method, args),
  );
}

/**
 * The next of the requests waiting on the writer thread: the first reading of a record page if
 * any waits, else the first request (removed from `queue`).
 *
 * Why: a pull asks for its next pages as it gets the readings of the last ones, and storing a
 * run holds the thread for tens of milliseconds, so a reading behind a queue of stores would
 * hold up its list's calls. Taking readings first is safe: a write that names a page's records
 * is asked for only after that page's reading was answered, and every other request keeps its
 * order.
 */
export function takeNextWrite<R extends { target: string; method: string }>(
  queue: R[],
): R | undefined {
  const reading = queue.findIndex((r) => r.target === 'pages' && r.method === 'read');
  return queue.splice(reading === -1 ? 0 : reading, 1)[0];
}
