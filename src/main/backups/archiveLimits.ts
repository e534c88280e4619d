/**
 * How far a backup archive may inflate: a pure decision on the sizes its table of contents
 * declares, taken before any entry is inflated. zip.js stops an entry the moment it inflates past
 * its declared size (ERR_INVALID_UNCOMPRESSED_SIZE), so what is declared bounds what is inflated;
 * these limits bound what may be declared. Without them a file of a few megabytes declaring
 * gigabytes honestly (a zip bomb, or a damaged archive) kept a verification inflating for as long
 * as it declared. The spec shows no backup sizes: the limits are ours, measured on the emulator's
 * archives (README.md, "Choices where the spec is silent").
 */

export interface ArchiveLimits {
  /** The most an entry may declare per byte it takes in the archive. */
  ratio: number;
  /** Entries declaring this much or less are never refused for their ratio. */
  ratioFloorBytes: number;
  /** The most all entries together may declare. */
  totalBytes: number;
}

/**
 * Ours: the emulator's entries deflate 2 to 16 to 1 (records' JSON about 11 to 1, bench:backup:
 * 160 MB of JSON in a 14.4 MB archive); records that all share one description of 5 to 15
 * thousand characters, the most a portal's records repeat one another, about 120 to 1. 250 to 1
 * is twice that. Deflate itself reaches about 1,000 to 1 on a run of one byte: what a zip bomb
 * is made of (and, from a backup, only records whose text is one character repeated).
 */
export const MAX_INFLATE_RATIO = 250;
/** Ours: a small entry (an empty portal's portal.json) may deflate better than records do. */
export const RATIO_FLOOR_BYTES = 1024 * 1024;
/**
 * Ours: 16 GiB in all, a hundred times the JSON of bench:backup's 100,000-record portal (about
 * ten million records): 3 to 7 minutes of verification at the JSON rates measured there.
 */
export const MAX_ARCHIVE_INFLATED_BYTES = 16 * 1024 ** 3;

export const ARCHIVE_LIMITS: ArchiveLimits = {
  ratio: MAX_INFLATE_RATIO,
  ratioFloorBytes: RATIO_FLOOR_BYTES,
  totalBytes: MAX_ARCHIVE_INFLATED_BYTES,
};

/** The start of every refusal for a size: it is not the archive of a backup. */
export const NOT_A_BACKUP = 'This file is not a backup PortalDesk can read';

const count = (n: number) => n.toLocaleString('en-US');

export interface DeclaredEntry {
  filename: string;
  /** Bytes the entry takes in the archive (encrypted, compressed). */
  compressedSize: number;
  /** Bytes it says it inflates to. */
  uncompressedSize: number;
}

/** What is wrong with the sizes `entries` declare, in words, or null when they are within limits. */
export function declaredSizesProblem(
  entries: readonly DeclaredEntry[],
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): string | null {
  let total = 0;
  for (const entry of entries) {
    const declared = entry.uncompressedSize;
    if (
      declared > limits.ratioFloorBytes &&
      declared > limits.ratio * Math.max(entry.compressedSize, 1)
    ) {
      return `${NOT_A_BACKUP}: its entry ${entry.filename} declares ${count(declared)} bytes from ${count(entry.compressedSize)} in the file, more than ${count(limits.ratio)} times its size, which no backup's data deflates to (a damaged or hostile archive). Nothing of it was inflated.`;
    }
    total += declared;
  }
  if (total > limits.totalBytes) {
    return `${NOT_A_BACKUP}: its entries declare ${count(total)} bytes in all, more than the ${count(limits.totalBytes)} PortalDesk reads in a backup (a damaged or hostile archive). Nothing of it was inflated.`;
  }
  return null;
}

/** An entry inflated past (or, without a CRC-32, short of) the size it declares. */
export function inflatedSizeProblem(entry: DeclaredEntry): string {
  return `${NOT_A_BACKUP}: its entry ${entry.filename} does not inflate to the ${count(entry.uncompressedSize)} bytes its table of contents declares (a damaged or hostile archive); it was stopped there.`;
}
