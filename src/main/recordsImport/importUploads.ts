/**
 * The files an import receives in pieces (`records.importUpload`), appended on disk in the
 * imports folder until they are opened. A piece is taken only where the bytes received so far
 * end: pieces out of order, skipped or sent twice would otherwise scramble the file silently.
 * The last piece taken, sent again with the same bytes (a call retried after its answer was
 * lost), gets the same answer and adds nothing.
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

/** A file arriving, or arrived whole and not yet opened. */
export interface Upload {
  file: string;
  fileName: string;
  bytes: number;
  complete: boolean;
  /** Where the last piece taken starts: a retry of it is answered again. */
  lastAt: number;
}

const count = (n: number) => n.toLocaleString('en-US');
const bytesOf = (n: number) => `${count(n)} ${n === 1 ? 'byte' : 'bytes'}`;

export class ImportUploads {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly folder: string) {}

  /** Takes a piece of a file; the first piece (no upload id) starts a new upload. */
  append(args: ImportUploadArgs): { uploadId: string; bytes: number } {
    const piece = Buffer.from(args.chunk, 'base64');
    if (args.uploadId === undefined) return this.start(args, piece);
    const uploadId = args.uploadId;
    const upload = this.uploads.get(uploadId);
    if (!upload) {
      throw new RecordsImportError(
        'This upload is not going on any more (the app restarted, or it ended). Choose the file again.',
      );
    }
    if (this.isRepeat(upload, args, piece)) return { uploadId, bytes: upload.bytes };
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
    };
    this.refuseTooLarge(null, upload, piece.length);
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

  /** An upload that has arrived whole, or undefined. */
  whole(uploadId: string): Upload | undefined {
    const upload = this.uploads.get(uploadId);
    return upload?.complete ? upload : undefined;
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
