/**
 * One attempt at downloading an archive into its temporary file, resuming where the file ends:
 * the bytes already there are hashed again (streamed), a `Range` request asks for the rest (with
 * `If-Range`, so a changed file comes whole), and the answer is appended or starts the file over
 * (resumePlan.ts decides). The body streams to disk chunk by chunk while it is hashed; the file is
 * fsynced before the attempt reports it complete. Nothing here renames or deletes: the caller
 * decides what a failure keeps.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { resumePlan } from './resumePlan';

/** Ours: bytes gathered before one write to the temporary file. */
export const WRITE_BATCH_BYTES = 1024 * 1024;
/** Ours: an attempt whose body sends nothing for this long is abandoned (and resumed). */
export const IDLE_TIMEOUT_MS = 30_000;

export type DownloadFailureKind = 'network' | 'link_gone' | 'disk' | 'protocol';

export class DownloadFailure extends Error {
  override name = 'DownloadFailure';
  constructor(
    readonly kind: DownloadFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface DownloadProgress {
  bytes: number;
  totalBytes: number | null;
  etag: string | null;
  resumed: boolean;
}

export interface DownloadAttempt {
  url: string;
  /** The temporary file (`.part`); created when missing. */
  part: string;
  /** The validator of the bytes already held, from an earlier attempt. */
  etag: string | null;
  /**
   * Sends the request through the request scheduler (its budget, its priorities); calls
   * `released` when the scheduler lets it go, so time queued there is not taken for a stall.
   */
  send: (init: {
    headers: Record<string, string>;
    signal: AbortSignal;
    released: () => void;
  }) => Promise<Response>;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  idleTimeoutMs?: number;
}

export interface Downloaded {
  bytes: number;
  sha256: string;
  etag: string | null;
  resumed: boolean;
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

async function hashFile(file: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
  }
}

/** Disk problems in words: what happened and what to do. */
export function diskMessage(error: unknown, file: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') {
    return `The disk is full: the backup could not be written to ${file}. The partial download was removed; earlier backups are untouched. Free some space and try again.`;
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return `PortalDesk may not write to ${file} (${code}). Earlier backups are untouched; check the permissions of the data directory and try again.`;
  }
  return `The backup could not be written to ${file}: ${error instanceof Error ? error.message : String(error)}.`;
}

const isDiskError = (error: unknown) =>
  typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string' &&
  ['ENOSPC', 'EACCES', 'EPERM', 'EROFS', 'EIO', 'EDQUOT', 'EISDIR', 'ENOTDIR'].includes(
    (error as NodeJS.ErrnoException).code!,
  );

export async function downloadAttempt(attempt: DownloadAttempt): Promise<Downloaded> {
  const idleMs = attempt.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  let have = await sizeOf(attempt.part);
  const hash = createHash('sha256');
  if (have > 0) await hashFile(attempt.part, hash);

  const controller = new AbortController();
  const abort = () => controller.abort(attempt.signal?.reason);
  // Aborted before it began (a Cancel as the previous step ended): nothing is sent.
  attempt.signal?.throwIfAborted();
  attempt.signal?.addEventListener('abort', abort, { once: true });
  let idle: NodeJS.Timeout | undefined;
  // Restarted at every chunk: `refresh()` moves the one timer instead of making a new one.
  const touch = () => {
    if (idle) {
      idle.refresh();
      return;
    }
    idle = setTimeout(
      () => controller.abort(new DownloadFailure('network', `no data for ${idleMs / 1000} s`)),
      idleMs,
    );
  };
  try {
    const headers: Record<string, string> = {};
    if (have > 0) {
      headers.Range = `bytes=${have}-`;
      if (attempt.etag) headers['If-Range'] = attempt.etag;
    }
    let response: Response;
    try {
      response = await attempt.send({ headers, signal: controller.signal, released: touch });
    } catch (error) {
      throw new DownloadFailure('network', `the download did not start (${reason(error)})`, {
        cause: error,
      });
    }
    const etag = response.headers.get('etag');
    const plan = resumePlan(have, {
      status: response.status,
      contentRange: response.headers.get('content-range'),
      contentLength: response.headers.get('content-length'),
      etag,
      ifRange: headers['If-Range'] ?? null,
    });
    if (plan.kind === 'fail') {
      await response.body?.cancel().catch(() => undefined);
      throw new DownloadFailure(
        plan.linkGone ? 'link_gone' : plan.transient ? 'network' : 'protocol',
        plan.reason,
      );
    }
    if (plan.kind === 'complete') {
      await response.body?.cancel().catch(() => undefined);
      return { bytes: have, sha256: hash.digest('hex'), etag: attempt.etag ?? etag, resumed: true };
    }
    const resumed = plan.kind === 'append';
    let running = hash;
    if (!resumed) {
      // The server sends it whole: what was held is dropped and hashed again from nothing.
      have = 0;
      running = createHash('sha256');
    }
    const total = plan.total;
    const handle = await open(attempt.part, resumed ? 'a' : 'w').catch((error: unknown) => {
      throw new DownloadFailure('disk', diskMessage(error, attempt.part), { cause: error });
    });
    try {
      attempt.onProgress?.({ bytes: have, totalBytes: total, etag, resumed });
      if (!response.body) throw new DownloadFailure('protocol', 'the server sent no file');
      // Chunks are written a megabyte at a time: one awaited write per ~120 KB chunk cost more
      // than the transfer (bench:backup). A batch's write runs while the next batch is read;
      // at most one is in flight, so the file grows in order, and `flush` waits for it.
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      // The write in flight, settled to its failure (or null) at once: a failure waits for
      // `settle` without being an unhandled rejection meanwhile.
      let writing: Promise<{ error: unknown } | null> | null = null;
      const settle = async () => {
        if (!writing) return;
        const write = writing;
        writing = null;
        const failed = await write;
        if (failed) throw failed.error;
      };
      const startFlush = async () => {
        await settle();
        if (pendingBytes === 0) return;
        const batch = pending;
        const bytes = pendingBytes;
        pending = [];
        pendingBytes = 0;
        writing = writeAll(handle, batch, bytes).then(
          () => null,
          (error: unknown) => ({ error }),
        );
      };
      const flush = async () => {
        await startFlush();
        await settle();
      };
      // An abort (the idle timer, the app closing) ends the read at once, whatever the
      // transport does with the request's own signal; what arrived is then written out.
      const reader = response.body.getReader();
      const stopReading = () => void reader.cancel(controller.signal.reason).catch(() => undefined);
      controller.signal.addEventListener('abort', stopReading, { once: true });
      // Aborted while the file was opened: that abort event has been and gone, so a body that
      // ignores the request's signal would be waited on until its idle timeout, or for good.
      if (controller.signal.aborted) stopReading();
      try {
        for (;;) {
          const { done, value: chunk } = await reader.read();
          if (done) break;
          touch();
          running.update(chunk);
          pending.push(chunk);
          pendingBytes += chunk.length;
          have += chunk.length;
          if (total !== null && have > total) {
            throw new DownloadFailure(
              'protocol',
              `the server sent more than the ${total} bytes it announced`,
            );
          }
          if (pendingBytes >= WRITE_BATCH_BYTES) await startFlush();
          attempt.onProgress?.({ bytes: have, totalBytes: total, etag, resumed });
        }
        await flush();
        if (controller.signal.aborted) throw controller.signal.reason;
      } catch (error) {
        if (isDiskError(error)) {
          throw new DownloadFailure('disk', diskMessage(error, attempt.part), { cause: error });
        }
        // What arrived before the cut is kept for the next attempt to resume from.
        try {
          await flush();
        } catch (flushError) {
          if (isDiskError(flushError)) {
            throw new DownloadFailure('disk', diskMessage(flushError, attempt.part), {
              cause: flushError,
            });
          }
        }
        if (error instanceof DownloadFailure) throw error;
        const cause = controller.signal.aborted ? controller.signal.reason : error;
        if (cause instanceof DownloadFailure) throw cause;
        throw new DownloadFailure('network', `the download was cut (${reason(cause)})`, { cause });
      } finally {
        controller.signal.removeEventListener('abort', stopReading);
      }
      if (total !== null && have !== total) {
        throw new DownloadFailure('network', `the download ended at ${have} of ${total} bytes`);
      }
      await handle.sync();
    } finally {
      await handle.close().catch(() => undefined);
    }
    return { bytes: have, sha256: running.digest('hex'), etag, resumed };
  } finally {
    clearTimeout(idle);
    attempt.signal?.removeEventListener('abort', abort);
  }
}

/**
 * Writes `chunks` (`bytes` in all) at the file's end, without copying them into one buffer.
 * writev may write less than it was given (a disk nearly full): the rest goes again.
 */
export async function writeAll(
  handle: FileHandle,
  chunks: Uint8Array[],
  bytes: number,
): Promise<void> {
  let rest = chunks;
  let left = bytes;
  while (left > 0) {
    const { bytesWritten } = await handle.writev(rest);
    if (bytesWritten <= 0) throw Object.assign(new Error('nothing written'), { code: 'EIO' });
    left -= bytesWritten;
    if (left === 0) break;
    // Drop what was written: whole chunks, then the written part of the next.
    let skip = bytesWritten;
    let first = 0;
    while (skip >= rest[first]!.length) skip -= rest[first++]!.length;
    rest = [rest[first]!.subarray(skip), ...rest.slice(first + 1)];
  }
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}
