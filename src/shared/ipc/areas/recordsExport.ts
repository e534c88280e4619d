/**
 * The records export (issue 20): the view the records table shows (module, filter, sort, chosen
 * columns, pending local edits laid over) written by the engine to a CSV or XLSX file, streamed,
 * with progress pushed and a cancel; then offered as a download (web mode) or shown in its folder
 * (desktop). contract.ts composes it with the records area.
 */
import { z } from 'zod';
import { request } from '../contractSpec';
import { FILTER_TEXT_MAX, RecordsSort } from './records';

const Id = z.string().regex(/^\d{1,20}$/, 'an id (digits)');
const ExportId = z.string().regex(/^\d{1,15}$/, 'an export id (digits)');

/** Ours: a view has at most this many columns to export (a module's fields fit many times over). */
export const EXPORT_COLUMNS_MAX = 500;
/** Ours: exports kept in the data directory's `exports` folder; older ones go when one starts. */
export const EXPORTS_KEPT = 10;
/** Ours: rows the table's Copy takes at once (beyond: export the view to a file instead). */
export const COPY_ROWS_MAX = 10_000;

export const ExportFormat = z.enum(['csv', 'xlsx']);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** `shown`: as the table shows them; `raw`: the API's values. */
export const ExportValues = z.enum(['shown', 'raw']);
export type ExportValues = z.infer<typeof ExportValues>;

export const ExportArgs = z
  .object({
    portalId: Id,
    moduleId: Id,
    /** The table's filter (the API's `filter` JSON text); absent: every record. */
    filter: z.string().max(FILTER_TEXT_MAX).optional(),
    sort: RecordsSort.optional(),
    /** Column keys in the table's order (`records.columns` field keys). */
    columns: z
      .array(z.string().min(1).max(200))
      .min(1, 'choose at least one column')
      .max(EXPORT_COLUMNS_MAX),
    format: ExportFormat,
    values: ExportValues,
    /** The table's locale (BCP 47) for numbers and dates; absent: the engine's. */
    locale: z
      .string()
      .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'a language tag such as en-GB')
      .optional(),
  })
  .strict();
export type ExportArgs = z.infer<typeof ExportArgs>;

export const ExportState = z.enum(['running', 'done', 'cancelled', 'failed']);
export type ExportState = z.infer<typeof ExportState>;

/** Where an export stands. */
export const ExportProgress = z.object({
  exportId: ExportId,
  portalId: z.string(),
  moduleId: z.string(),
  format: ExportFormat,
  fileName: z.string(),
  state: ExportState,
  /** Rows written so far (data rows, not the header). */
  rows: z.number().int().nonnegative(),
  /** Rows of the view when the export started. */
  total: z.number().int().nonnegative(),
  /** Seconds left at the pace so far; null until there is a pace, and once it ends. */
  etaSeconds: z.number().nonnegative().nullable(),
  /** What happened, in words, once it has ended (done, cancelled or failed), else null. */
  message: z.string().nullable(),
});
export type ExportProgress = z.infer<typeof ExportProgress>;

const ByExport = z.object({ exportId: ExportId }).strict();

export const recordsExportRequests = {
  'records.export': request(
    ExportArgs,
    ExportProgress,
    "Write the table's view to a CSV or XLSX file in the background; progress follows as events.",
  ),
  'records.latestExport': request(
    z.object({}).strict(),
    ExportProgress.nullable(),
    'The running export, else the last one that ended since the engine started: a dialog opened again (the view left and come back to, the page reloaded) shows it.',
  ),
  'records.cancelExport': request(
    ByExport,
    ExportProgress,
    'Stop a running export and delete its partial file.',
  ),
  'records.exportLink': request(
    ByExport,
    z.object({ path: z.string(), fileName: z.string(), expiresAt: z.string() }),
    "Web mode: a link (a path on the app's own address) that downloads a finished export.",
  ),
  'records.showExport': request(
    ByExport,
    z.object({ shown: z.literal(true) }),
    "Desktop: show a finished export's file in the system's file manager.",
  ),
} as const;

export const recordsExportEvents = {
  /** An export's progress (a few times a second) and its end. */
  'records.exportProgress': ExportProgress,
} as const;
