/**
 * The files an import receives in pieces (`records.importUpload`), appended on disk in the
 * imports folder until they are opened. A piece is taken only where the bytes received so far
 * end: pieces out of order, skipped or sent twice would otherwise scramble the file silently.
 * The last piece taken, sent again with the same bytes (a call retried after its answer was
 * lost), gets the same answer and adds nothing.
 *
 * What uploads may hold is bounded twice: a file by IMPORT_FILE_MAX_BYTES, all files not yet
 * opened together by IMPORT_UPLOADS_MAX_BYTES; and an upload no piece reached for
 * IMPORT_UPLOAD_IDLE_MS (the dialog closed or the window reloaded half way: nothing says so) is
 * removed with its file, so abandoned uploads neither fill the disk nor use up the bound.
 */
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { IMPORT_FILE_MAX_BYTES, type ImportUploadArgs } from '../../shared/ipc/areas/recordsImport';
import { importFormatOf } from './importRows';
import { RecordsImportError } from './recordsImportError';

const MiB = 1024 * 1024;
/**
 * Ours: the most all files uploaded and not yet opened hold together on disk: three files of the
 * largest size at once (the dialog uploads one file at a time; other windows or browser tabs may
 * upload meanwhile).
 */
export const IMPORT_UPLOADS_MAX_BYTES = 300 * MiB;
/**
 * Ours: an upload no piece reached for this long is abandoned and removed. The dialog sends the
 * next piece as soon as the last is answered (512 KiB takes seconds even on a slow link), and
 * opens the file as soon as its last piece is answered.
 */
export const IMPORT_UPLOAD_IDLE_MS = 10 * 60_000;
/** Ours: how often abandoned uploads are looked for when no piece arrives to trigger it. */
export const IMPORT_UPLOAD_SWEEP_MS = 60_000;

export interface ImportUploadsOptions {
  now: () => number;
  /** Default IMPORT_UPLOADS_MAX_BYTES; tests make it small. */
  maxBytes?: number;
}

/** A file arriving, or arrived whole and not yet opened. */
export interface Upload {
  file: string;
  fileName: string;
  bytes: number;
  complete: boolean;
  /** Where the last piece taken starts: a retry of it is answered again. */
  lastAt: number;
  /** When a piece was last taken (or the file opened): idle uploads are removed. */
  touched: number;
}

const count = (n: number) => n.toLocaleString('en-US');
const bytesOf = (n: number) => `${count(n)} ${n === 1 ? 'byte' : 'bytes'}`;
const sizeOf = (n: number) =>
  n < MiB ? bytesOf(n) : `${Number.isInteger(n / MiB) ? n / MiB : (n / MiB).toFixed(1)} MiB`;
const IDLE_MINUTES = IMPORT_UPLOAD_IDLE_MS / 60_000;

export class ImportUploads {
  private readonly uploads = new Map<string, Upload>();
  private readonly maxBytes: number;

  constructor(
    private readonly folder: string,
    private readonly options: ImportUploadsOptions,
  ) {
    this.maxBytes = options.maxBytes ?? IMPORT_UPLOADS_MAX_BYTES;
  }

  /** Takes a piece of a file; the first piece (no upload id) starts a new upload. */
  append(args: ImportUploadArgs): { uploadId: string; bytes: number } {
    // Abandoned uploads go first: their bytes no longer count against the bound.
    this.expireIdle();
    const piece = Buffer.from(args.chunk, 'base64');
    if (args.uploadId === undefined) return this.start(args, piece);
    const uploadId = args.uploadId;
    const upload = this.uploads.get(uploadId);
    if (!upload) {
      throw new RecordsImportError(
        `This upload is not going on any more (the app restarted, it ended, or no piece reached it for ${IDLE_MINUTES} minutes). Choose the file again.`,
      );
    }
    if (this.isRepeat(upload, args, piece)) {
      upload.touched = this.options.now();
      return { uploadId, bytes: upload.bytes };
    }
    if (upload.complete) {
      throw new RecordsImportError(
        `${upload.fileName} has arrived whole already (${bytesOf(upload.bytes)}). Nothing was added; open it, or choose the file again.`,
      );
    }
    if (args.offset !== upload.bytes) {
      throw new RecordsImportError(
        `A piece of ${upload.fileName} arrived out of place: it starts at byte ${count(args.offset)}, but ${bytesOf(upload.bytes)} have arrived so far. Nothing was added: the upload keeps its first ${bytesOf(upload.bytes)}; send the piece that starts at byte ${count(upload.bytes)}, or choose the file again.`,
      );
    }
    this.refuseTooLarge(uploadId, upload, piece.length);
    this.refuseTooMuchHeld(uploadId, upload, piece.length);
    this.take(upload, args, piece);
    return { uploadId, bytes: upload.bytes };
  }

  private start(args: ImportUploadArgs, piece: Buffer): { uploadId: string; bytes: number } {
    if (importFormatOf(args.fileName) === null) {
      throw new RecordsImportError(
        `${args.fileName} is not a CSV or XLSX file. Nothing was uploaded; save the sheet as .csv or .xlsx and choose it again.`,
      );
    }
    if (args.offset !== 0) {
      throw new RecordsImportError(
        `The first piece of ${args.fileName} starts at byte ${count(args.offset)} instead of the beginning. Nothing was uploaded; choose the file again.`,
      );
    }
    const uploadId = randomBytes(8).toString('hex');
    const upload: Upload = {
      file: path.join(this.folder, `${uploadId}.upload`),
      fileName: args.fileName,
      bytes: 0,
      complete: false,
      lastAt: 0,
      touched: this.options.now(),
    };
    this.refuseTooLarge(null, upload, piece.length);
    this.refuseTooMuchHeld(null, upload, piece.length);
    mkdirSync(this.folder, { recursive: true });
    writeFileSync(upload.file, '');
    this.uploads.set(uploadId, upload);
    this.take(upload, args, piece);
    return { uploadId, bytes: upload.bytes };
  }

  private take(upload: Upload, args: ImportUploadArgs, piece: Buffer): void {
    appendFileSync(upload.file, piece);
    upload.lastAt = upload.bytes;
    upload.bytes += piece.length;
    upload.complete = args.last;
    upload.touched = this.options.now();
  }

  /** The last piece taken, sent again: same start, same end, same bytes, same `last`. */
  private isRepeat(upload: Upload, args: ImportUploadArgs, piece: Buffer): boolean {
    if (args.offset !== upload.lastAt || args.offset + piece.length !== upload.bytes) return false;
    if (args.last !== upload.complete) return false;
    if (piece.length === 0) return true;
    const held = Buffer.alloc(piece.length);
    const fd = openSync(upload.file, 'r');
    try {
      readSync(fd, held, 0, piece.length, args.offset);
    } finally {
      closeSync(fd);
    }
    return held.equals(piece);
  }

  private refuseTooLarge(uploadId: string | null, upload: Upload, pieceBytes: number): void {
    if (upload.bytes + pieceBytes <= IMPORT_FILE_MAX_BYTES) return;
    if (uploadId !== null) this.drop(uploadId);
    throw new RecordsImportError(
      `${upload.fileName} is larger than ${IMPORT_FILE_MAX_BYTES / 1024 / 1024} MiB, the most an import takes. Nothing was kept; split the file and import the parts.`,
    );
  }

  /**
   * The bound on what all uploads hold. A later piece refused drops its upload: the dialog cannot
   * resume it, and kept it would hold the room a new attempt needs.
   */
  private refuseTooMuchHeld(uploadId: string | null, upload: Upload, pieceBytes: number): void {
    let held = 0;
    for (const other of this.uploads.values()) held += other.bytes;
    if (held + pieceBytes <= this.maxBytes) return;
    if (uploadId !== null) this.drop(uploadId);
    throw new RecordsImportError(
      `Files uploaded for import and not yet opened take ${sizeOf(held)} already; ${upload.fileName} would take them past ${sizeOf(this.maxBytes)}, the most kept at once. Nothing of ${upload.fileName} was ${uploadId === null ? 'uploaded' : 'kept'}; finish or close the other imports (an upload no piece reaches for ${IDLE_MINUTES} minutes is removed), then choose the file again.`,
    );
  }

  /** Removes, with their files, the uploads no piece reached for IMPORT_UPLOAD_IDLE_MS. */
  expireIdle(): void {
    const now = this.options.now();
    for (const [uploadId, upload] of this.uploads) {
      if (now - upload.touched >= IMPORT_UPLOAD_IDLE_MS) this.drop(uploadId);
    }
  }

  /** An upload that has arrived whole (its idle time restarted while it opens), or undefined. */
  whole(uploadId: string): Upload | undefined {
    this.expireIdle();
    const upload = this.uploads.get(uploadId);
    if (!upload?.complete) return undefined;
    upload.touched = this.options.now();
    return upload;
  }

  /** An opened upload's file now belongs to its import: no longer tracked here. */
  release(uploadId: string): void {
    this.uploads.delete(uploadId);
  }

  drop(uploadId: string): void {
    const upload = this.uploads.get(uploadId);
    if (upload) rmSync(upload.file, { force: true });
    this.uploads.delete(uploadId);
  }
}
