/**
 * The records import's service: a file uploaded in pieces into the data directory's `imports`
 * folder, opened (header, samples, columns matched to fields), checked whole (every row read
 * streamed and planned by the editor's rules; nothing queued), and, once the user confirms,
 * queued through the outbox: creates as queued creates, updates as edits the outbox coalesces
 * into one PATCH per record. Checking and queuing run a batch of rows per turn of the event loop,
 * so every other request is answered meanwhile; progress is pushed (`records.importProgress`).
 *
 * The file is read again to queue rather than the check's plans kept: a 50,000-row file is never
 * held whole, and each row is planned against its record as it is when it is queued.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EditForm } from '../../shared/ipc/areas/outbox';
import type { RecordRow } from '../../shared/ipc/areas/records';
import {
  IMPORT_COLUMNS_MAX,
  IMPORT_FAILURES_KEPT,
  IMPORT_SAMPLE_ROWS,
  type ImportCheckArgs,
  type ImportFailure,
  type ImportFile,
  type ImportMode,
  type ImportProgress,
  type ImportUploadArgs,
} from '../../shared/ipc/areas/recordsImport';
import { fieldValue } from '../../shared/recordValues/describeValue';
import type { CellReading, ImportCell } from '../../shared/recordValues/parseCell';
import type { EventPusher } from '../bridge/eventHub';
import { LedgerError, TrashedRecordError } from '../outbox/ledgerError';
import type { EditCatalog } from '../outbox/editCatalog';
import type { OutboxService } from '../outbox/outboxService';
import type { Mirror } from '../store/mirror/mirror';
import type { RecordViewRows } from '../store/mirror/recordQuery';
import { RecordsReader } from '../records/recordsReader';
import { SYSTEM_FIELD_TYPES } from '../outbox/outboxTypes';
import { isCustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';
import type Database from 'better-sqlite3';
import { ID_TARGET, matchColumnsWithNotes } from './columnTargets';
import { cellAsText, importFormatOf, readImportRows, type ImportFormat } from './importRows';
import { IMPORT_UPLOAD_IDLE_MS, IMPORT_UPLOAD_SWEEP_MS, ImportUploads } from './importUploads';
import { CsvError } from '../../shared/csv/csvReader';
import { RecordsImportError } from './recordsImportError';
import { misnamedFile, SIGNATURE_BYTES } from './fileSignature';
import { cellMatchKey, valueMatchKey } from './matchKey';
import { planRow, type PlannedColumn } from './planRow';
import { setImmediate as nextTurn } from 'node:timers/promises';

export { RecordsImportError };

/** The data directory's folder of uploaded files; emptied when the engine starts. */
export const IMPORTS_FOLDER = 'imports';
/**
 * Ours: the longest a check or queuing holds the engine's thread before it yields (a row takes
 * about a millisecond: its record's form read, every cell parsed), so any other request waits
 * about this long at most.
 */
export const IMPORT_SLICE_MS = 25;
/** Field types whose value may identify one record (update matched by a unique field). */
const MATCH_TYPES = new Set(['name', 'single_line', 'email', 'phone', 'url', 'number']);

export interface RecordsImportsOptions {
  db: Database.Database;
  dataDir: string;
  mirror: Mirror;
  outbox: OutboxService;
  events: EventPusher;
  log?: { error(message: string, error?: unknown): void };
  /** The clock uploads' idle time is measured by (default Date.now). */
  now?: () => number;
  /** Default IMPORT_UPLOADS_MAX_BYTES; tests make it small. */
  uploadsMaxBytes?: number;
}

interface Import {
  file: ImportFile;
  path: string;
  reading: CellReading;
  plan: { columns: PlannedColumn[]; mode: ImportMode; matchBy: string } | null;
  progress: ImportProgress;
  failures: ImportFailure[];
  /** Set while a check or queuing runs; aborted by a cancel. */
  running: AbortController | null;
  /**
   * Rows (numbers in the file) this import queued as new records. A queuing cancelled half way
   * leaves them in the Outbox; checked and confirmed again, they count as unchanged and are not
   * created twice (an update needs no such list: its record's form holds the queued edit, so
   * the row asks no change any more).
   */
  created: Set<number>;
  done: Promise<void>;
}

/** The records an update matched by a unique field may name, by their value's key (matchKey.ts). */
interface RecordsByValue {
  type: string;
  reading: CellReading;
  ids: Map<string, string[]>;
  /**
   * Of the values no listed record holds, the trashed records holding them: the row is told so
   * (the editor refuses a trashed record too), not that no record holds the value.
   */
  trashed: Map<string, string[]>;
}

/** The first bytes of a file (fewer when it is shorter). */
function firstBytes(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const bytes = Buffer.alloc(SIGNATURE_BYTES);
    return bytes.subarray(0, readSync(fd, bytes, 0, SIGNATURE_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

const count = (n: number) => n.toLocaleString('en-US');
const rows = (n: number) => `${count(n)} ${n === 1 ? 'row' : 'rows'}`;
const isBlank = (cells: readonly ImportCell[]) =>
  cells.every((cell) => cell === null || cell === '');

export class RecordsImports {
  private readonly uploads: ImportUploads;
  private readonly imports = new Map<string, Import>();
  private readonly reader: RecordsReader;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: RecordsImportsOptions) {
    this.reader = new RecordsReader(options.db, options.mirror);
    this.uploads = new ImportUploads(this.folder, {
      now: options.now ?? Date.now,
      ...(options.uploadsMaxBytes === undefined ? {} : { maxBytes: options.uploadsMaxBytes }),
    });
    // Uploads of an earlier run are never resumed: their pieces are removed.
    rmSync(this.folder, { recursive: true, force: true });
    // An abandoned upload is removed even when no other piece arrives to notice it.
    this.sweeper = setInterval(() => this.expireIdleUploads(), IMPORT_UPLOAD_SWEEP_MS);
    this.sweeper.unref();
  }

  get folder(): string {
    return path.join(this.options.dataDir, IMPORTS_FOLDER);
  }

  // ---- the file ---------------------------------------------------------------------------------

  upload(args: ImportUploadArgs): { uploadId: string; bytes: number } {
    return this.uploads.append(args);
  }

  /** Removes the uploads no piece reached for IMPORT_UPLOAD_IDLE_MS (every minute, and tests). */
  expireIdleUploads(): void {
    this.uploads.expireIdle();
  }

  /** The header and first rows of an uploaded file, its columns matched to the module's fields. */
  async open(args: {
    portalId: string;
    moduleId: string;
    uploadId: string;
    locale?: string;
  }): Promise<ImportFile> {
    const upload = this.uploads.whole(args.uploadId);
    if (!upload) {
      throw new RecordsImportError(
        `That file has not arrived whole, or was left unopened for ${IMPORT_UPLOAD_IDLE_MS / 60_000} minutes. Nothing was read; choose the file again.`,
      );
    }
    let form: EditForm;
    let format: ImportFormat;
    let head: Awaited<ReturnType<RecordsImports['head']>>;
    try {
      form = this.newForm(args.portalId, args.moduleId);
      format = importFormatOf(upload.fileName) as ImportFormat;
      const misnamed = misnamedFile(upload.fileName, format, firstBytes(upload.file));
      if (misnamed !== null) throw new RecordsImportError(misnamed);
      head = await this.head(upload.file, format, upload.fileName);
    } catch (error) {
      // A file that cannot be opened is not opened later either (the dialog asks for the file
      // again): removed now, its bytes freed, rather than held against the bound for 10 minutes.
      this.uploads.drop(args.uploadId);
      throw error;
    }
    const { header, samples } = head;
    // Every field a record of the module may edit, on any layout, labelled as the table and the
    // export label them (a file exported from PortalDesk maps itself).
    const columns = this.reader.columns(args.portalId, args.moduleId).fields;
    const fills = (f: (typeof columns)[number]) =>
      f.system ? SYSTEM_FIELD_TYPES[f.key] !== undefined : isCustomFieldType(f.type);
    const fields = columns.filter(fills).map(({ key, label, type }) => ({ key, label, type }));
    // The columns an export writes and no import fills: a header naming one of them is not a
    // field's that happens to share its label (columnTargets.ts).
    const others = columns.filter((f) => !fills(f) && f.key !== ID_TARGET);
    const matched = matchColumnsWithNotes(header, fields, others);
    const importId = randomBytes(8).toString('hex');
    const file: ImportFile = {
      importId,
      portalId: args.portalId,
      moduleId: args.moduleId,
      fileName: upload.fileName,
      format,
      columns: header.map((name, i) => ({
        header: name,
        sample: samples.map((row) => cellAsText(row[i])),
        target: matched[i]?.target ?? null,
        note: matched[i]?.note ?? null,
      })),
      fields,
      matchFields: [ID_TARGET, ...fields.filter((f) => MATCH_TYPES.has(f.type)).map((f) => f.key)],
    };
    this.uploads.release(args.uploadId);
    this.imports.set(importId, {
      file,
      path: upload.file,
      reading: {
        context: { timeZone: form.timeZone, ...(args.locale ? { locale: args.locale } : {}) },
        // The export's formula guard is on a CSV's cells only (an XLSX cell is typed text).
        defused: format === 'csv',
        xml: format === 'xlsx',
      },
      plan: null,
      progress: this.progress(importId, 'checked', null),
      failures: [],
      running: null,
      created: new Set(),
      done: Promise.resolve(),
    });
    return file;
  }

  private progress(
    importId: string,
    phase: ImportProgress['phase'],
    message: string | null,
  ): ImportProgress {
    return {
      importId,
      phase,
      rows: 0,
      ready: 0,
      failing: 0,
      unchanged: 0,
      total: null,
      message,
    };
  }

  private newForm(portalId: string, moduleId: string): EditForm {
    try {
      return this.options.outbox.form(portalId, moduleId);
    } catch (error) {
      if (error instanceof LedgerError) throw new RecordsImportError(error.message);
      throw error;
    }
  }

  private async head(file: string, format: ImportFormat, fileName: string) {
    let header: string[] | null = null;
    const samples: ImportCell[][] = [];
    try {
      for await (const cells of readImportRows(file, format)) {
        if (header === null) {
          if (isBlank(cells)) continue;
          header = cells.map(cellAsText);
          continue;
        }
        if (isBlank(cells)) continue;
        samples.push(cells);
        if (samples.length >= IMPORT_SAMPLE_ROWS) break;
      }
    } catch (error) {
      // The reader's own refusal says where and what to do.
      if (error instanceof CsvError) {
        throw new RecordsImportError(
          `${fileName} could not be read as CSV: ${error.message}. Nothing was imported.`,
        );
      }
      throw new RecordsImportError(
        `${fileName} could not be read as ${format === 'csv' ? 'CSV' : 'an XLSX workbook'} (${error instanceof Error ? error.message : String(error)}). Nothing was imported; save it again from the spreadsheet and choose it again.`,
      );
    }
    if (header === null) {
      throw new RecordsImportError(
        `${fileName} is empty. Nothing was imported; its first row must name the columns.`,
      );
    }
    if (header.length > IMPORT_COLUMNS_MAX) {
      throw new RecordsImportError(
        `${fileName} has ${header.length} columns; an import takes at most ${IMPORT_COLUMNS_MAX}. Nothing was imported; remove the columns not needed.`,
      );
    }
    return { header, samples };
  }

  private require(importId: string): Import {
    const entry = this.imports.get(importId);
    if (!entry) {
      throw new RecordsImportError(
        'This import is not open any more (the app restarted, or it was closed). Choose the file again.',
      );
    }
    return entry;
  }

  private requireIdle(entry: Import): void {
    if (entry.running) {
      throw new RecordsImportError(
        `This import is ${entry.progress.phase === 'checking' ? 'checking its rows' : 'queuing its rows'}. Nothing new was started; wait for it or cancel it.`,
      );
    }
  }

  // ---- checking and queuing ---------------------------------------------------------------------

  /** Starts checking every row with these targets and mode; answers at once. */
  check(args: ImportCheckArgs): ImportProgress {
    const entry = this.require(args.importId);
    this.requireIdle(entry);
    const { columns: fileColumns, fields, matchFields } = entry.file;
    if (args.targets.length !== fileColumns.length) {
      throw new RecordsImportError(
        `The file has ${fileColumns.length} columns but ${args.targets.length} were mapped. Nothing was checked; map the columns again.`,
      );
    }
    const known = new Set([ID_TARGET, ...fields.map((f) => f.key)]);
    const seen = new Set<string>();
    for (const target of args.targets) {
      if (target === null) continue;
      if (!known.has(target)) {
        throw new RecordsImportError(
          `"${target}" is not a field of this module. Nothing was checked; map that column again.`,
        );
      }
      if (seen.has(target)) {
        const label = fields.find((f) => f.key === target)?.label ?? 'ID';
        throw new RecordsImportError(
          `Two columns are mapped to ${label}. Nothing was checked; map one of them to another field, or ignore it.`,
        );
      }
      seen.add(target);
    }
    const matchBy = args.matchBy ?? ID_TARGET;
    if (args.mode === 'update') {
      if (!matchFields.includes(matchBy)) {
        throw new RecordsImportError(
          `Records cannot be matched by "${matchBy}". Nothing was checked; match them by ID or by a text field whose value is unique.`,
        );
      }
      if (!args.targets.includes(matchBy)) {
        const label = fields.find((f) => f.key === matchBy)?.label ?? 'ID';
        throw new RecordsImportError(
          `No column is mapped to ${label}, which matches rows to records. Nothing was checked; map the column that holds it.`,
        );
      }
    } else if (args.targets.every((t) => t === null || t === ID_TARGET)) {
      throw new RecordsImportError(
        'No column is mapped to a field. Nothing was checked; map at least the name.',
      );
    }
    entry.plan = {
      columns: fileColumns.map((c, i) => ({ header: c.header, target: args.targets[i] ?? null })),
      mode: args.mode,
      matchBy,
    };
    return this.run(entry, 'checking');
  }

  /** Queues what the check found ready; answers at once. */
  confirm(importId: string): ImportProgress {
    const entry = this.require(importId);
    this.requireIdle(entry);
    if (entry.plan === null || entry.progress.phase !== 'checked') {
      throw new RecordsImportError(
        entry.progress.phase === 'queued'
          ? 'These rows are queued already. Nothing more was queued; see the Outbox.'
          : 'The rows have not been checked with these columns. Nothing was queued; check them first.',
      );
    }
    if (entry.progress.ready === 0) {
      throw new RecordsImportError('No row is ready to queue. Nothing was queued.');
    }
    return this.run(entry, 'queuing');
  }

  cancel(importId: string): ImportProgress {
    const entry = this.require(importId);
    if (entry.running) entry.running.abort();
    else {
      rmSync(entry.path, { force: true });
      this.imports.delete(importId);
    }
    return entry.progress;
  }

  state(importId: string): ImportProgress {
    return this.require(importId).progress;
  }

  /** Resolves once the import's running check or queuing has ended (tests, close). */
  settled(importId: string): Promise<void> {
    return this.require(importId).done;
  }

  failures(importId: string, offset: number, limit: number) {
    const entry = this.require(importId);
    return {
      failures: entry.failures.slice(offset, offset + limit),
      // Problems kept (a row may have several): the list's length, to page through.
      total: entry.failures.length,
    };
  }

  private run(entry: Import, phase: 'checking' | 'queuing'): ImportProgress {
    const controller = new AbortController();
    const total = phase === 'queuing' ? entry.progress.ready : null;
    entry.running = controller;
    entry.failures = [];
    entry.progress = { ...this.progress(entry.file.importId, phase, null), total };
    this.push(entry, true);
    entry.done = this.walk(entry, phase, controller.signal).then(
      () => undefined,
      (error: unknown) => {
        this.options.log?.error(`records import ${entry.file.fileName} failed`, error);
        const reason = error instanceof Error ? error.message : String(error);
        this.end(
          entry,
          'failed',
          `The import stopped after ${rows(entry.progress.rows)}: ${reason}.${phase === 'queuing' ? ` ${rows(entry.progress.ready)} were queued and stay in the Outbox.` : ' Nothing was queued.'}`,
        );
      },
    );
    return entry.progress;
  }

  private end(entry: Import, phase: ImportProgress['phase'], message: string): void {
    entry.running = null;
    entry.progress = { ...entry.progress, phase, message };
    this.push(entry, true);
  }

  private push(entry: Import, now: boolean): void {
    const { events } = this.options;
    const progress = entry.progress;
    events.push('records.importProgress', progress.importId, () => entry.progress);
    if (now) events.flush('records.importProgress');
  }

  private async walk(entry: Import, phase: 'checking' | 'queuing', signal: AbortSignal) {
    const plan = entry.plan!;
    const { portalId, moduleId } = entry.file;
    const matchColumn = plan.columns.findIndex((c) => c.target === plan.matchBy);
    const byValue =
      plan.mode === 'update' && plan.matchBy !== ID_TARGET
        ? await this.recordsByValue(entry, matchColumn, signal)
        : null;
    const newForm = plan.mode === 'create' ? this.newForm(portalId, moduleId) : null;
    const formOf = this.options.outbox.formReader();
    // The catalogs the queued rows are checked against, read once for the whole walk.
    const catalogs = new Map<string, EditCatalog>();
    // The row that named each record first (updates): a second row for the same record would
    // override the first's values, or the first's the second's, by the order of the file alone.
    const namedBy = new Map<string, number>();
    let rowNumber = 0;
    let header = true;
    let slice = performance.now();
    // Cancelled while the file was read for its match values: no row is checked.
    const fileRows = signal.aborted ? [] : readImportRows(entry.path, entry.file.format);
    for await (const cells of fileRows) {
      rowNumber++;
      if (header) {
        header = isBlank(cells);
        continue;
      }
      if (isBlank(cells)) continue;
      const progress = { ...entry.progress, rows: entry.progress.rows + 1 };
      const fail = (problems: Omit<ImportFailure, 'row'>[]) => {
        progress.failing++;
        for (const problem of problems) {
          if (entry.failures.length < IMPORT_FAILURES_KEPT)
            entry.failures.push({ row: rowNumber, ...problem });
        }
      };
      const misfit = this.misfit(entry, cells);
      if (misfit !== null) {
        fail([{ column: null, reason: misfit }]);
        entry.progress = progress;
        continue;
      }
      let form: EditForm | { refused: string } | null = newForm;
      let recordId: string | null = null;
      if (plan.mode === 'update') {
        const found = this.recordOf(cells[matchColumn] ?? null, byValue, (id) => {
          const read = this.formOf(formOf, portalId, moduleId, id);
          form = read;
          return read !== null;
        });
        if (typeof found !== 'string') {
          fail([{ column: plan.columns[matchColumn]!.header, reason: found.reason }]);
          entry.progress = progress;
          continue;
        }
        recordId = found;
        const first = namedBy.get(recordId);
        if (first !== undefined) {
          fail([
            {
              column: plan.columns[matchColumn]!.header,
              reason: `row ${count(first)} names the same record (${recordId}), and one import changes a record once. Nothing of this row was checked; put its changes in row ${count(first)}, or remove one of the two rows.`,
            },
          ]);
          entry.progress = progress;
          continue;
        }
        namedBy.set(recordId, rowNumber);
        form ??= this.formOf(formOf, portalId, moduleId, recordId);
        if (form === null) {
          fail([
            { column: null, reason: `record ${recordId} is not in the local mirror any more.` },
          ]);
          entry.progress = progress;
          continue;
        }
        if ('refused' in form) {
          fail([{ column: null, reason: form.refused }]);
          entry.progress = progress;
          continue;
        }
      }
      // A new record's form holds no values: every mapped cell is a value to set.
      const row = planRow(
        cells,
        plan.columns,
        recordId === null ? { fields: form!.fields } : form!,
        entry.reading,
      );
      if (row.problems.length > 0) fail(row.problems);
      else if (Object.keys(row.changes).length === 0 || entry.created.has(rowNumber)) {
        progress.unchanged++;
      } else if (phase === 'checking') progress.ready++;
      else {
        try {
          if (recordId === null) {
            this.options.outbox.create(portalId, moduleId, row.changes, catalogs);
            entry.created.add(rowNumber);
          } else this.options.outbox.edit(portalId, recordId, row.changes, catalogs);
          progress.ready++;
        } catch (error) {
          if (!(error instanceof LedgerError)) throw error;
          fail([{ column: null, reason: error.message }]);
        }
      }
      entry.progress = progress;
      if (performance.now() - slice >= IMPORT_SLICE_MS) {
        this.push(entry, false);
        await nextTurn();
        slice = performance.now();
        if (signal.aborted) break;
      }
    }
    const p = entry.progress;
    const counts = `${rows(p.failing)} failing, ${rows(p.unchanged)} unchanged`;
    if (phase === 'checking') {
      this.end(
        entry,
        signal.aborted ? 'cancelled' : 'checked',
        signal.aborted
          ? `Check cancelled after ${rows(p.rows)}. Nothing was queued.`
          : `${rows(p.ready)} ready, ${counts}. Nothing is queued until you confirm.`,
      );
    } else {
      this.end(
        entry,
        signal.aborted ? 'cancelled' : 'queued',
        signal.aborted
          ? `Stopped after ${rows(p.rows)}: ${rows(p.ready)} were queued and stay in the Outbox (discard them there); the rest were not.`
          : `Queued ${rows(p.ready)} in the Outbox; ${counts} (not queued).`,
      );
    }
  }

  /**
   * Why a row's cells do not line up with the header, or null when they do. A value holding an
   * unquoted separator shifts every cell after it, and a CSV row cut short would empty the fields
   * it has no cells for: read as they come, both queue wrong values. Empty cells past the header
   * (a trailing separator) and an XLSX row's missing last cells (a sheet does not store empty
   * cells) are fine.
   */
  private misfit(entry: Import, cells: readonly ImportCell[]): string | null {
    const width = entry.file.columns.length;
    // A merge reaching past the header shows its value there, but is no cell of its own.
    const extra = cells
      .slice(width)
      .some(
        (cell) =>
          cell !== null && cell !== '' && !(typeof cell === 'object' && cell.kind === 'merged'),
      );
    const short = entry.file.format === 'csv' && cells.length < width;
    if (!extra && !short) return null;
    const many = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
    return `${many(cells.length, 'cell')} under a header of ${many(width, 'column')}: ${
      extra
        ? 'a value holding the separator without quotes shifts the cells after it'
        : 'the row ends before its last columns'
    }. Nothing of this row was checked; fix the row in the file and upload it again.`;
  }

  /**
   * The record a row names: by id (`exists` reads its form), or by its unique value; else why
   * none.
   */
  private recordOf(
    cell: ImportCell,
    byValue: RecordsByValue | null,
    exists: (recordId: string) => boolean,
  ): string | { reason: string } {
    if (typeof cell === 'object' && cell?.kind === 'merged') {
      return {
        reason: `it lies under the merged cells ${cell.range}, whose one value is shown across several columns, so the record it names is unclear. Unmerge those cells, give each row its own value, and import the file again.`,
      };
    }
    const text = cellAsText(cell).trim();
    if (text === '') return { reason: 'empty: the row names no record to update.' };
    if (byValue === null) {
      return exists(text)
        ? text
        : { reason: `no record of this module has the id ${text} in the local mirror.` };
    }
    const key = cellMatchKey(byValue.type, cell, byValue.reading);
    const ids = (key === null ? undefined : byValue.ids.get(key)) ?? [];
    if (ids.length === 1) return ids[0]!;
    const trashed = (ids.length === 0 && key !== null && byValue.trashed.get(key)) || [];
    if (trashed.length > 0) {
      const which =
        trashed.length === 1
          ? `the record holding "${text}" (id ${trashed[0]}) is`
          : `the ${trashed.length} records holding "${text}" (ids ${trashed.slice(0, 5).join(', ')}${trashed.length > 5 ? ', …' : ''}) are`;
      return {
        reason: `${which} in the trash, and the service refuses changes to trashed records. Nothing of this row was queued; restore ${trashed.length === 1 ? 'it' : 'the one to change'} first, or import this row as a new record.`,
      };
    }
    return ids.length === 0
      ? { reason: `no record of this module holds "${text}".` }
      : {
          reason: `${ids.length} records hold "${text}" (ids ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}); match by ID instead.`,
        };
  }

  /**
   * A record's form; why it may not be changed (a trashed record, as the editor refuses it); or
   * null when the mirror has no such record of this module.
   */
  private formOf(
    read: (portalId: string, recordId: string) => EditForm,
    portalId: string,
    moduleId: string,
    recordId: string,
  ): EditForm | { refused: string } | null {
    try {
      const form = read(portalId, recordId);
      return form.moduleId === moduleId ? form : null;
    } catch (error) {
      if (error instanceof TrashedRecordError) return { refused: error.message };
      if (error instanceof LedgerError) return null;
      throw error;
    }
  }

  /**
   * Record ids by the value of the match field (matchKey.ts), for the values the file holds: the
   * file's column read first, then the module's records a batch at a time (as the export reads
   * them), so memory holds the file's keys and their records, never the module.
   */
  /**
   * The records holding each value the file's match column names. Reads the whole file, then the
   * module, a slice at a time; a cancel stops either (the answer is then partial: the walk
   * checks no row).
   */
  private async recordsByValue(
    entry: Import,
    column: number,
    signal: AbortSignal,
  ): Promise<RecordsByValue> {
    const field = entry.file.fields.find((f) => f.key === entry.plan!.matchBy)!;
    const keys = new Set<string>();
    let header = true;
    let slice = performance.now();
    for await (const cells of readImportRows(entry.path, entry.file.format)) {
      if (header) {
        header = isBlank(cells);
        continue;
      }
      const key = cellMatchKey(field.type, cells[column], entry.reading);
      if (key !== null) keys.add(key);
      if (performance.now() - slice >= IMPORT_SLICE_MS) {
        await nextTurn();
        slice = performance.now();
        if (signal.aborted) break;
      }
    }
    const ids = new Map<string, string[]>();
    const trashed = new Map<string, string[]>();
    const answer = { type: field.type, reading: entry.reading, ids, trashed };
    if (signal.aborted) return answer;
    const view = { portalId: entry.file.portalId, moduleId: entry.file.moduleId };
    const collect = async (
      rows: RecordViewRows,
      into: Map<string, string[]>,
      wanted: Set<string>,
    ) => {
      for (let from = 0; from < rows.total && !signal.aborted; from += 1000) {
        for (const record of rows.read(from, 1000) as RecordRow[]) {
          const key = valueMatchKey(field.type, fieldValue(record, field.key));
          if (key === null || !wanted.has(key)) continue;
          into.set(key, [...(into.get(key) ?? []), record.id]);
        }
        if (performance.now() - slice >= IMPORT_SLICE_MS) {
          await nextTurn();
          slice = performance.now();
        }
      }
    };
    await collect(this.options.mirror.query.openView(view), ids, keys);
    const unmatched = new Set([...keys].filter((key) => !ids.has(key)));
    if (unmatched.size > 0 && !signal.aborted) {
      await collect(this.options.mirror.query.openTrashedView(view), trashed, unmatched);
    }
    return answer;
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const entry of this.imports.values()) entry.running?.abort();
  }
}
