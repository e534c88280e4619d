/**
 * The records import (issue 20): a CSV or XLSX file read by the engine, streamed, into a module:
 * its columns mapped to fields, every row checked by the editor's rules, the failing rows listed
 * with their reasons, and nothing queued until the user confirms; then creates or coalesced edits
 * queued through the outbox in batches, with progress pushed. The file reaches the engine in
 * pieces (`records.importUpload`, web mode and desktop alike). contract.ts composes it.
 */
import { z } from 'zod';
import { request } from '../contractSpec';

const Id = z.string().regex(/^\d{1,20}$/, 'an id (digits)');
const ImportId = z.string().regex(/^[a-f0-9]{16}$/, 'an import id');

/** Ours: a piece of a file as it travels (base64 of up to 512 KiB fits a request's 1 MiB). */
export const IMPORT_CHUNK_BYTES = 512 * 1024;
/** Ours: the largest file an import takes (50,000 rows of 100 columns fit several times over). */
export const IMPORT_FILE_MAX_BYTES = 100 * 1024 * 1024;
/** Ours: rows of each column shown as its sample when the columns are mapped. */
export const IMPORT_SAMPLE_ROWS = 3;
/** Ours: failing rows listed at once (the list is paged). */
export const IMPORT_FAILURES_PAGE_MAX = 200;
/** Ours: failing rows kept to list (all are counted). */
export const IMPORT_FAILURES_KEPT = 10_000;
/** Ours: columns a file may have. */
export const IMPORT_COLUMNS_MAX = 500;
/**
 * Ours: the most characters one row of a file may hold (a CSV's line, an XLSX row's cells). A
 * record's fields hold at most a description of 80,000 characters and fields of 1,000 or fewer
 * (the spec's value limits), so a row of records is far shorter; a longer one (a quote never
 * closed, one line of 100 MiB, a zip whose row unpacks to gigabytes) would be held whole.
 */
export const IMPORT_ROW_MAX_CHARS = 4 * 1024 * 1024;

/** A column's target: a field's key, `id` (the record id, to match rows by), or null (ignored). */
const Target = z.string().min(1).max(100).nullable();

export const ImportUploadArgs = z
  .object({
    /** Absent on the first piece; then the id the first piece's answer gave. */
    uploadId: ImportId.optional(),
    fileName: z.string().min(1).max(255),
    /**
     * Where the piece starts in the file (bytes): a piece is taken only where the bytes received
     * so far end, so pieces out of order or sent twice cannot scramble the file.
     */
    offset: z.number().int().nonnegative().max(IMPORT_FILE_MAX_BYTES),
    /**
     * The piece, base64 (standard alphabet, padded). Anything else is refused: Node's decoder
     * skips characters outside the alphabet, so a damaged piece would be taken with bytes missing.
     */
    chunk: z
      .string()
      .max(Math.ceil(IMPORT_CHUNK_BYTES / 3) * 4)
      .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'base64'),
    /** The last piece: the file is complete. */
    last: z.boolean(),
  })
  .strict();
export type ImportUploadArgs = z.infer<typeof ImportUploadArgs>;

export const ImportColumn = z.object({
  header: z.string(),
  /** The first rows' cells, as text. */
  sample: z.array(z.string()),
  target: Target,
  /** Why a header naming a field was left unmatched (like-named columns); null or absent if not. */
  note: z.string().nullable().optional(),
});
export type ImportColumn = z.infer<typeof ImportColumn>;

export const ImportMode = z.enum(['create', 'update']);
export type ImportMode = z.infer<typeof ImportMode>;

export const ImportFile = z.object({
  importId: ImportId,
  portalId: z.string(),
  moduleId: z.string(),
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  columns: z.array(ImportColumn),
  /** What a column may be mapped to: the fields a new record's form edits, by key. */
  fields: z.array(z.object({ key: z.string(), label: z.string(), type: z.string() })),
  /** Fields whose value may identify a record (update matched by a unique field). */
  matchFields: z.array(z.string()),
});
export type ImportFile = z.infer<typeof ImportFile>;

export const ImportCheckArgs = z
  .object({
    importId: ImportId,
    /** One target per column, in the file's order. */
    targets: z.array(Target).max(IMPORT_COLUMNS_MAX),
    mode: ImportMode,
    /** Update: `id`, or the key of the field whose value matches one record. */
    matchBy: z.string().min(1).max(100).optional(),
  })
  .strict();
export type ImportCheckArgs = z.infer<typeof ImportCheckArgs>;

/**
 * `cancelled`: a check or queuing stopped by the user (a queuing's rows taken back: an import is
 * queued whole or not at all); a check must run again before a queue. `interrupted`: a queuing
 * stopped half way by the app's end (killed, power lost, closed), found at the next start: its
 * rows queued so far are held from the replay until it is finished (`importConfirm`) or
 * discarded (`importCancel`). `discarding`: its queued rows being taken back.
 */
export const ImportPhase = z.enum([
  'checking',
  'checked',
  'queuing',
  'queued',
  'cancelled',
  'failed',
  'interrupted',
  'discarding',
]);

/** Where an import stands: its counts so far. */
export const ImportProgress = z.object({
  importId: ImportId,
  phase: ImportPhase,
  /** Data rows read so far (blank rows not counted). */
  rows: z.number().int().nonnegative(),
  /** Rows that would change records (checked) or were queued (queued). */
  ready: z.number().int().nonnegative(),
  failing: z.number().int().nonnegative(),
  /** Rows that show what their record holds already: nothing to queue. */
  unchanged: z.number().int().nonnegative(),
  /** Rows the check found ready (known while queuing: the bar's end). */
  total: z.number().int().nonnegative().nullable(),
  /** In words, once a phase has ended. */
  message: z.string().nullable(),
});
export type ImportProgress = z.infer<typeof ImportProgress>;

/** An import a restart found stopped half way through its queuing. */
export const ImportInterrupted = z.object({
  importId: ImportId,
  portalId: z.string(),
  moduleId: z.string(),
  fileName: z.string(),
  /** Its file is kept: the rows not queued can be queued (otherwise it can only be discarded). */
  canFinish: z.boolean(),
  /** `ready`: rows queued and held; `total`: rows confirmed; `message`: both in words. */
  progress: ImportProgress,
});
export type ImportInterrupted = z.infer<typeof ImportInterrupted>;

export const ImportFailure = z.object({
  /** The spreadsheet's row number (the header is row 1). */
  row: z.number().int().positive(),
  /** The column's header; null for a row's own problem (no record matches). */
  column: z.string().nullable(),
  reason: z.string(),
});
export type ImportFailure = z.infer<typeof ImportFailure>;

const ByImport = z.object({ importId: ImportId }).strict();

export const recordsImportRequests = {
  'records.importUpload': request(
    ImportUploadArgs,
    z.object({ uploadId: ImportId, bytes: z.number().int().nonnegative() }),
    'Send a piece of a CSV or XLSX file to import; the first piece starts a new upload.',
  ),
  'records.importOpen': request(
    z
      .object({
        portalId: Id,
        moduleId: Id,
        uploadId: ImportId,
        /** The table's locale (BCP 47): numbers and dates are read as it shows them. */
        locale: z
          .string()
          .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'a language tag such as en-GB')
          .optional(),
      })
      .strict(),
    ImportFile,
    "Read an uploaded file's header and first rows, and match its columns to the module's fields by name.",
  ),
  'records.importCheck': request(
    ImportCheckArgs,
    ImportProgress,
    "Read the whole file, checking every row by the editor's rules; nothing is queued. Progress follows as events.",
  ),
  'records.importFailures': request(
    z
      .object({
        importId: ImportId,
        offset: z.number().int().nonnegative(),
        limit: z.number().int().positive().max(IMPORT_FAILURES_PAGE_MAX),
      })
      .strict(),
    z.object({ failures: z.array(ImportFailure), total: z.number().int().nonnegative() }),
    'A page of the failing rows the last check found, with their reasons.',
  ),
  'records.importConfirm': request(
    ByImport,
    ImportProgress,
    'Queue the rows the check found ready through the outbox (the file is read again), held from the replay until the last is queued; or finish an interrupted import. Progress follows as events.',
  ),
  'records.importCancel': request(
    ByImport,
    ImportProgress,
    'Stop a check, or a queuing between batches (the rows queued so far are taken back), discard an interrupted import (likewise), or drop an import.',
  ),
  'records.importsInterrupted': request(
    z.object({ portalId: Id, moduleId: Id }).strict(),
    z.array(ImportInterrupted),
    "A module's imports stopped half way through their queuing (the app killed or closed): their queued rows are held until finished or discarded.",
  ),
  'records.importState': request(ByImport, ImportProgress, 'Where an import stands now.'),
} as const;

export const recordsImportEvents = {
  /** An import's counts while it checks or queues (a few times a second), and its end. */
  'records.importProgress': ImportProgress,
} as const;
