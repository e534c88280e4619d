/**
 * Opens a downloaded archive with its access code and checks it all: every entry decrypts (its
 * AES authentication code and CRC-32 match), every `.json` entry parses, and a known layout's
 * records, comments and modules are counted. Streaming throughout: the archive is read from disk
 * in slices (a file-backed Blob), each entry is inflated and parsed element by element, so memory
 * stays bounded by the largest record, not the archive.
 */
import { openAsBlob } from 'node:fs';
import path from 'node:path';
import {
  BlobReader,
  ERR_AMBIGUOUS_ARCHIVE,
  ERR_BAD_FORMAT,
  ERR_EOCDR_NOT_FOUND,
  ERR_INVALID_AUTHENTICATION_CODE,
  ERR_INVALID_CRC32,
  ERR_INVALID_PASSWORD,
  ERR_INVALID_UNCOMPRESSED_SIZE,
  ERR_UNSAFE_FILENAME,
  ZipReader,
  type FileEntry,
} from '@zip.js/zip.js';
import {
  ARCHIVE_LIMITS,
  declaredSizesProblem,
  inflatedSizeProblem,
  NOT_A_BACKUP,
  type ArchiveLimits,
} from './archiveLimits';
import { useLargeInflateChunks } from './inflateStream';
import { JsonElementSplitter } from './jsonElements';
import { ARCHIVE_FORMATS, type ArchiveCounts, type ArchiveFormat } from './portalArchiveFormat';
import { Utf8Chunks, Utf8Error } from '../utf8Chunks';

/** Ours: the largest single JSON element (one record) verification parses whole. */
export const MAX_ELEMENT_BYTES = 16 * 1024 * 1024;

/**
 * Ours: inflated bytes are decoded to text at most this many at a time. A string over ~128 KB (a
 * 64 K-character one with any non-ASCII character in it) is allocated in V8's large-object space,
 * which made decoding zip.js's 256 KiB chunks whole ten times slower than decoding them in
 * pieces (bench:backup's profile: `Buffer.toString` was a quarter of a verification).
 */
const DECODE_PIECE_BYTES = 32 * 1024;

export interface EntryCheck {
  name: string;
  bytes: number;
  items: number | null;
}

export interface ArchiveCheck {
  entries: EntryCheck[];
  /** The layout that read it, or null: verified, but it cannot be browsed. */
  format: string | null;
  counts: ArchiveCounts | null;
}

/** The access code does not open the archive. Nothing was changed. */
export class WrongAccessCodeError extends Error {
  override name = 'WrongAccessCodeError';
}

/** The archive is damaged or not what it says (truncated, tampered, not JSON). */
export class DamagedArchiveError extends Error {
  override name = 'DamagedArchiveError';
}

/**
 * The file is no backup archive at all, whatever happened on its way: no ZIP archive (no table of
 * contents where one must be), no entry or one not encrypted, or one declaring or inflating to
 * more than any backup's data (a zip bomb, archiveLimits.ts). A download is verified only once it
 * holds every byte the service said the file has, so this is what the service's file itself
 * holds: fetching it again would bring the same. (A changed byte is DamagedArchiveError: it fails
 * a checksum, and comes right when fetched again.)
 */
export class NotABackupError extends DamagedArchiveError {
  override name = 'NotABackupError';
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** zip.js's messages for a wrong password and for damaged data, by their exported constants. */
function classify(error: unknown, entry: string | null): Error {
  const message = messageOf(error);
  if (message === ERR_INVALID_PASSWORD) {
    return new WrongAccessCodeError(
      'This access code does not open the backup. Nothing was changed; try the code that was given when the backup was made.',
    );
  }
  if (entry === null && (message === ERR_EOCDR_NOT_FOUND || message === ERR_BAD_FORMAT)) {
    return new NotABackupError(
      `${NOT_A_BACKUP}: it is not a ZIP archive (${message.toLowerCase()}), as every backup of the service is.`,
    );
  }
  if (message === ERR_AMBIGUOUS_ARCHIVE) {
    const reason = (error as { reason?: unknown }).reason;
    return new DamagedArchiveError(
      `The backup is not the archive the service made: its table of contents can be read more than one way (${typeof reason === 'string' ? reason : 'ambiguous'}).`,
    );
  }
  if (message === ERR_UNSAFE_FILENAME) {
    const name = String((error as { filename?: unknown }).filename ?? '').slice(0, 200);
    return new DamagedArchiveError(
      `The backup is not the archive the service made: it names an entry outside the archive ("${name}").`,
    );
  }
  const where = entry ? `its entry ${entry}` : 'its table of contents';
  if (message === ERR_INVALID_AUTHENTICATION_CODE || message === ERR_INVALID_CRC32) {
    return new DamagedArchiveError(
      `The backup is damaged: ${where} does not match its checksum (changed or corrupted after it was made).`,
    );
  }
  return new DamagedArchiveError(`The backup cannot be read: ${where}: ${message}.`);
}

export interface EntryReading {
  /** Stops the reading between two chunks; what it throws is the signal's reason. */
  signal?: AbortSignal;
  /** Bytes inflated, a chunk at a time. */
  onBytes?: (bytes: number) => void;
}

/** Streams one entry: decrypted, checked, and for `.json` entries parsed element by element. */
export async function checkEntry(
  entry: FileEntry,
  password: string,
  add: ((element: unknown) => void) | null,
  { signal, onBytes }: EntryReading = {},
): Promise<EntryCheck> {
  const json = entry.filename.toLowerCase().endsWith('.json');
  const decoder = new Utf8Chunks();
  const splitter = json ? new JsonElementSplitter({ maxElementBytes: MAX_ELEMENT_BYTES }) : null;
  let bytes = 0;
  let items = 0;
  let topLevelArray: boolean | null = null;
  // What the caller's `add` threw (an abort, a write error) is theirs: passed on as it is, not
  // taken for damage in the archive.
  let addFailure: { error: unknown } | null = null;
  const take = (elements: unknown[]) => {
    items += elements.length;
    if (!add) return;
    try {
      for (const element of elements) add(element);
    } catch (error) {
      addFailure = { error };
      throw error;
    }
  };
  const sink = new WritableStream<Uint8Array>({
    write(chunk) {
      // Between chunks: a cancelled verification stops here, at most one chunk later.
      signal?.throwIfAborted();
      bytes += chunk.length;
      onBytes?.(chunk.length);
      if (!splitter) return;
      for (let at = 0; at < chunk.length; at += DECODE_PIECE_BYTES) {
        const text = decoder.decode(chunk.subarray(at, at + DECODE_PIECE_BYTES));
        if (topLevelArray === null && text.trimStart() !== '') {
          topLevelArray = text.trimStart().startsWith('[');
        }
        take(splitter.push(text));
      }
    },
    close() {
      if (!splitter) return;
      take(splitter.push(decoder.end()));
      take(splitter.end());
    },
  });
  try {
    await entry.getData(sink, {
      password,
      checkPasswordOnly: false,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    // Stopped on purpose: not a verdict on the archive.
    if (signal?.aborted) throw signal.reason;
    if (addFailure !== null) throw (addFailure as { error: unknown }).error;
    if (error instanceof WrongAccessCodeError) throw error;
    if (error instanceof Error && error.name === 'JsonStreamError') {
      throw new DamagedArchiveError(
        `The backup's ${entry.filename} is not valid JSON: ${error.message}.`,
      );
    }
    if (error instanceof Utf8Error) {
      throw new DamagedArchiveError(`The backup's ${entry.filename} is not UTF-8 text.`);
    }
    // zip.js stops an entry the moment it inflates past its declared size: a zip bomb whose
    // table of contents lies is stopped there, and said to be one.
    if (messageOf(error) === ERR_INVALID_UNCOMPRESSED_SIZE) {
      throw new NotABackupError(inflatedSizeProblem(entry));
    }
    throw classify(error, entry.filename);
  }
  return { name: entry.filename, bytes, items: json && topLevelArray ? items : null };
}

/**
 * Opens `file` with `password` and hands its file entries (every one encrypted, every size
 * within `limits`, or it throws) to `use`; the archive is closed after, whatever happens.
 */
export async function withArchiveEntries<T>(
  file: string,
  password: string,
  use: (files: FileEntry[]) => Promise<T>,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<T> {
  useLargeInflateChunks();
  let blob: Blob;
  try {
    blob = await openAsBlob(file);
  } catch {
    // Node says only "Unable to open file as blob": the file is gone or may not be read.
    throw new DamagedArchiveError(
      `The backup file ${path.basename(file)} cannot be opened: it may have been moved or deleted outside PortalDesk. Nothing was changed; choose Verify to check it (a backup whose file cannot be read can then be downloaded again), or Delete.`,
    );
  }
  const reader = new ZipReader(new BlobReader(blob), {
    password,
    useWebWorkers: false,
    checkCrc32: true,
    checkAuthenticationCode: true,
    // AES checks each entry's data, never the table of contents: an entry named twice, bytes
    // before or after the archive, or a local name that differs from the listed one mean the
    // file is not the archive the service wrote, though every entry still decrypts.
    strictness: 'strict',
  });
  try {
    let entries;
    try {
      entries = await reader.getEntries();
    } catch (error) {
      throw classify(error, null);
    }
    const files = entries.filter((entry): entry is FileEntry => !entry.directory);
    if (files.length === 0)
      throw new NotABackupError(`${NOT_A_BACKUP}: the archive holds no files.`);
    for (const entry of files) {
      if (!entry.encrypted) {
        throw new NotABackupError(
          `${NOT_A_BACKUP}: its ${entry.filename} is not encrypted, so it is not an archive the service made with an access code.`,
        );
      }
    }
    // Before any entry is inflated: what is declared bounds what zip.js inflates.
    const tooLarge = declaredSizesProblem(files, limits);
    if (tooLarge) throw new NotABackupError(tooLarge);
    return await use(files);
  } finally {
    await reader.close().catch(() => undefined);
  }
}

export interface VerifyOptions {
  /** The layouts known (default: every one). */
  formats?: readonly ArchiveFormat[];
  /** How far the archive may inflate (default: ARCHIVE_LIMITS). */
  limits?: ArchiveLimits;
  /** Stops the verification between two chunks; it then throws the signal's reason. */
  signal?: AbortSignal;
  /** Bytes inflated so far, of the total every entry declares. */
  onProgress?: (bytes: number, totalBytes: number) => void;
}

/**
 * Checks `file` with `password`. Throws WrongAccessCodeError or DamagedArchiveError in words;
 * changes nothing on disk either way.
 */
export function verifyArchive(
  file: string,
  password: string,
  options: VerifyOptions = {},
): Promise<ArchiveCheck> {
  const formats = options.formats ?? ARCHIVE_FORMATS;
  const { signal, onProgress } = options;
  const check = async (files: FileEntry[]): Promise<ArchiveCheck> => {
    const names = files.map((entry) => entry.filename);
    const format = formats.find((candidate) => candidate.recognises(names)) ?? null;
    const tally = format?.tally() ?? null;
    const checks: EntryCheck[] = [];
    const totalBytes = files.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    let inflated = 0;
    const onBytes = (bytes: number) => {
      inflated += bytes;
      onProgress?.(inflated, totalBytes);
    };
    for (const entry of files) {
      signal?.throwIfAborted();
      const add = tally ? (element: unknown) => tally.add(entry.filename, element) : null;
      checks.push(
        await checkEntry(entry, password, add, { ...(signal ? { signal } : {}), onBytes }),
      );
    }
    return { entries: checks, format: format?.name ?? null, counts: tally?.result() ?? null };
  };
  return withArchiveEntries(file, password, check, options.limits);
}

/**
 * What is wrong when the archive says it is another backup than the one asked for (its
 * `portal.json` names another portal, or another export id), or null: a link that gave an older
 * archive made with the same code (replayed, or a service's mix-up), or another portal's made
 * with the same code, decrypts and counts like the right one.
 */
export function anotherBackupProblem(
  check: ArchiveCheck,
  asked: { portalId: string; exportId: string | null },
): string | null {
  const portal = check.counts?.portalId ?? null;
  if (portal !== null && portal !== asked.portalId) {
    return `The downloaded archive is a backup of portal ${portal.slice(0, 64)}, not of portal ${asked.portalId}: the service's link gave another portal's file.`;
  }
  const archived = check.counts?.exportId ?? null;
  if (archived === null || asked.exportId === null || archived === asked.exportId) return null;
  return `The downloaded archive is backup ${archived.slice(0, 64)}, not ${asked.exportId}: the service's link gave another backup's file.`;
}
