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
 *
 * A confirmed import goes whole or not at all: each row's operation is journaled with it
 * (importRunsRepository) and held from the replay until the last row is queued. A cancel takes
 * back what was queued; a run a restart finds (the app killed, the power lost, closed while
 * queuing) is offered to finish (the rows journaled are skipped, so none is queued twice) or to
 * discard.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
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
  type ImportInterrupted,
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
import { ImportRunsRepository } from './importRunsRepository';
import { queueCreate, queueUpdate, takeBackRow } from './importRowWrites';
import { setImmediate as nextTurn } from 'node:timers/promises';

export { RecordsImportError };

/** The data directory's folder of uploaded files; emptied when the engine starts. */
export const IMPORTS_FOLDER = 'imports';
/**
 * The data directory's folder of files whose import was confirmed and is being queued: kept
 * across a restart (unlike `imports`), so an import stopped half way can be finished.
 */
export const IMPORT_RUNS_FOLDER = 'import-runs';
/** Ours: journaled rows taken back per transaction (as a bulk edit's batches: BATCH_RECORDS). */
const TAKE_BACK_ROWS = 250;
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

type ImportPlan = { columns: PlannedColumn[]; mode: ImportMode; matchBy: string };

/** What the journal keeps of a confirmed import, to finish it after a restart. */
interface JournaledImport {
  file: ImportFile;
  reading: CellReading;
  plan: ImportPlan;
}

interface Import {
  file: ImportFile;
  path: string;
  reading: CellReading;
  plan: ImportPlan | null;
  progress: ImportProgress;
  failures: ImportFailure[];
  /** Set while a check or queuing runs; aborted by a cancel. */
  running: AbortController | null;
  /** The rows of the file queued already (journaled), with their records: a finish skips them. */
  journaled: Map<number, string>;
  /** Confirmed and journaled (import_runs): its operations are held until it ends. */
  journal: boolean;
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
const upper = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const isBlank = (cells: readonly ImportCell[]) =>
  cells.every((cell) => cell === null || cell === '');

export class RecordsImports {
  private readonly uploads: ImportUploads;
  private readonly imports = new Map<string, Import>();
  private readonly reader: RecordsReader;
  private readonly sweeper: NodeJS.Timeout;
  private readonly runs: ImportRunsRepository;
  /** The engine is closing: a queuing stopped now stays journaled for the next start. */
  private closing = false;

  constructor(private readonly options: RecordsImportsOptions) {
    this.reader = new RecordsReader(options.db, options.mirror);
    this.runs = new ImportRunsRepository(options.db, options.now ?? Date.now);
    this.uploads = new ImportUploads(this.folder, {
      now: options.now ?? Date.now,
      ...(options.uploadsMaxBytes === undefined ? {} : { maxBytes: options.uploadsMaxBytes }),
    });
    // Uploads of an earlier run are never resumed: their pieces are removed.
    rmSync(this.folder, { recursive: true, force: true });
    // An abandoned upload is removed even when no other piece arrives to notice it.
    this.sweeper = setInterval(() => this.expireIdleUploads(), IMPORT_UPLOAD_SWEEP_MS);
    this.sweeper.unref();
    for (const run of this.runs.runs()) this.reopenStopped(run);
  }

  get folder(): string {
    return path.join(this.options.dataDir, IMPORTS_FOLDER);
  }

  private get runsFolder(): string {
    return path.join(this.options.dataDir, IMPORT_RUNS_FOLDER);
  }

  /** An import a restart found still being queued: held, to finish or discard. */
  private reopenStopped(run: ReturnType<ImportRunsRepository['runs']>[number]): void {
    const kept = run.import as JournaledImport;
    const entry: Import = {
      file: kept.file,
      path: path.join(this.runsFolder, run.id),
      reading: kept.reading,
      plan: kept.plan,
      progress: {
        ...this.progress(run.id, 'interrupted', null),
        ready: run.queued,
        total: run.confirmed,
      },
      failures: [],
      running: null,
      journaled: new Map(),
      journal: true,
      done: Promise.resolve(),
    };
    entry.progress.message = this.stoppedWords(entry);
    this.imports.set(run.id, entry);
  }

  /** What an import stopped half way holds, and what the user may do, in words. */
  private stoppedWords(entry: Import): string {
    const { ready: queued, total } = entry.progress;
    const rest = Math.max(0, (total ?? 0) - queued);
    const next = existsSync(entry.path)
      ? `Finish queues the other ${rows(rest)}, skipping those queued; Discard takes back the ${rows(queued)}.`
      : `Its file is gone from PortalDesk's data folder, so it cannot be finished: Discard takes back the ${rows(queued)}, then import the file again.`;
    return `The import of ${entry.file.fileName} stopped before it ended (PortalDesk closed or the computer stopped): ${rows(queued)} of the ${rows(total ?? 0)} confirmed are queued and held, none sent. ${next}`;
  }

  /** Imports stopped half way with rows queued and held, of one module or all. */
  interrupted(filter: { portalId?: string; moduleId?: string } = {}): ImportInterrupted[] {
    const list: ImportInterrupted[] = [];
    for (const entry of this.imports.values()) {
      const { file, progress } = entry;
      if (!entry.journal || entry.running !== null) continue;
      if (filter.portalId !== undefined && file.portalId !== filter.portalId) continue;
      if (filter.moduleId !== undefined && file.moduleId !== filter.moduleId) continue;
      list.push({
        importId: file.importId,
        portalId: file.portalId,
        moduleId: file.moduleId,
        fileName: file.fileName,
        canFinish: existsSync(entry.path),
        progress,
      });
    }
    return list;
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
      journaled: new Map(),
      journal: false,
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
      const doing =
        entry.progress.phase === 'checking'
          ? 'checking its rows'
          : entry.progress.phase === 'discarding'
            ? 'taking back its queued rows'
            : 'queuing its rows';
      throw new RecordsImportError(
        `This import is ${doing}. Nothing new was started; wait for it or cancel it.`,
      );
    }
  }

  // ---- checking and queuing ---------------------------------------------------------------------

  /** Starts checking every row with these targets and mode; answers at once. */
  check(args: ImportCheckArgs): ImportProgress {
    const entry = this.require(args.importId);
    this.requireIdle(entry);
    if (entry.journal) {
      throw new RecordsImportError(
        'This import stopped half way with rows queued. Nothing was checked; finish it or discard it first.',
      );
    }
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

  /**
   * Queues what the check found ready, journaled and held until the last row is queued; or
   * finishes an import stopped half way (the rows queued already skipped). Answers at once.
   */
  confirm(importId: string): ImportProgress {
    const entry = this.require(importId);
    this.requireIdle(entry);
    if (entry.journal) return this.finish(entry);
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
    // Journaled first: a restart from here on finds the run, with its file kept.
    const kept = path.join(this.runsFolder, importId);
    const { file, reading, plan } = entry;
    try {
      mkdirSync(this.runsFolder, { recursive: true });
      renameSync(entry.path, kept);
      this.runs.insertRun({
        id: importId,
        portalId: file.portalId,
        moduleId: file.moduleId,
        fileName: file.fileName,
        confirmed: entry.progress.ready,
        import: { file, reading, plan } satisfies JournaledImport,
      });
    } catch (error) {
      if (existsSync(kept)) renameSync(kept, entry.path);
      throw new RecordsImportError(
        `The import could not be started (${error instanceof Error ? error.message : String(error)}). Nothing was queued; free some disk space and confirm again.`,
      );
    }
    entry.path = kept;
    entry.journal = true;
    entry.journaled = new Map();
    return this.run(entry, 'queuing');
  }

  /** Queues the rows of an import stopped half way that it had not queued. */
  private finish(entry: Import): ImportProgress {
    if (!existsSync(entry.path)) {
      throw new RecordsImportError(
        `${entry.file.fileName} is gone from PortalDesk's data folder, so the rest of its rows cannot be queued. Nothing was queued; discard this import, then import the file again.`,
      );
    }
    entry.journaled = this.runs.rowRecords(entry.file.importId);
    return this.run(entry, 'queuing');
  }

  /**
   * Stops a check or a queuing (a queuing's rows are taken back: an import goes whole or not at
   * all), discards an import stopped half way, or drops an import.
   */
  cancel(importId: string): ImportProgress {
    const entry = this.require(importId);
    if (entry.running) {
      if (entry.progress.phase !== 'discarding') entry.running.abort();
    } else if (entry.journal) {
      entry.running = new AbortController();
      entry.done = this.discard(entry, { kind: 'discard' }).catch((error: unknown) =>
        this.discardFailed(entry, error),
      );
    } else {
      rmSync(entry.path, { force: true });
      this.imports.delete(importId);
    }
    return entry.progress;
  }

  /**
   * Takes back every row the import queued, the last first, a batch per transaction (the event
   * loop yielded between), then ends its run. Stopped by a close, the rest stays journaled.
   * `why`: a discard of an import stopped half way, a cancel or a failure of its queuing.
   */
  private async discard(
    entry: Import,
    why:
      | { kind: 'discard' }
      | { kind: 'cancel'; read: number }
      | { kind: 'failed'; read: number; reason: string },
  ): Promise<void> {
    const { outbox } = this.options;
    const { importId, portalId, moduleId } = entry.file;
    const queued = entry.progress.ready;
    // `total`: the rows to take back (the bar's end), `ready`: those left.
    entry.progress = { ...entry.progress, phase: 'discarding', total: queued, message: null };
    this.push(entry, true);
    let keptEdits = 0;
    for (;;) {
      if (this.closing) return;
      const batch = this.runs.lastRows(importId, TAKE_BACK_ROWS);
      if (batch.length === 0) break;
      outbox.repo.transaction(() => {
        for (const row of batch) {
          keptEdits += takeBackRow(outbox.ledger, outbox.repo, entry.file, row).keptEdits;
          this.runs.deleteRow(importId, row.row);
        }
      });
      entry.progress = { ...entry.progress, ready: entry.progress.ready - batch.length };
      outbox.queuedElsewhere({ portalId, moduleId });
      this.push(entry, false);
      await nextTurn();
    }
    this.runs.deleteRun(importId);
    entry.journal = false;
    if (why.kind === 'discard') rmSync(entry.path, { force: true });
    else {
      // Cancelled in the dialog: the file stays open there, to check and confirm again (back
      // among the uploads, emptied when the engine starts).
      const back = path.join(this.folder, `${importId}.upload`);
      mkdirSync(this.folder, { recursive: true });
      renameSync(entry.path, back);
      entry.path = back;
    }
    const kept =
      keptEdits === 0
        ? ''
        : ` ${keptEdits === 1 ? 'One field' : `${count(keptEdits)} fields`} edited again since the import kept that edit.`;
    const taken = `nothing of it is queued (the ${rows(queued)} queued were taken back, none sent).${kept}`;
    if (why.kind === 'failed') {
      this.end(
        entry,
        'failed',
        `The import stopped after ${rows(why.read)}: ${why.reason}. ${upper(taken)}`,
      );
    } else {
      const what =
        why.kind === 'cancel' ? `Queuing cancelled after ${rows(why.read)}` : 'Import discarded';
      const next =
        why.kind === 'cancel'
          ? 'Check the rows again to queue them.'
          : 'Choose the file again to import it.';
      this.end(entry, 'cancelled', `${what}: ${taken} ${next}`);
    }
  }

  /** A take-back that failed: the rest stays journaled and held, to finish or discard again. */
  private discardFailed(entry: Import, error: unknown): void {
    this.options.log?.error(`records import ${entry.file.fileName}: taking back failed`, error);
    entry.progress = {
      ...entry.progress,
      ready: this.runs.rowRecords(entry.file.importId).size,
    };
    this.end(
      entry,
      'interrupted',
      `Taking back the queued rows failed (${error instanceof Error ? error.message : String(error)}). ${this.stoppedWords(entry)}`,
    );
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
    // Queuing: the rows confirmed (a finish's are its run's, not the rows it had queued).
    const total =
      phase !== 'queuing'
        ? null
        : entry.progress.phase === 'interrupted'
          ? entry.progress.total
          : entry.progress.ready;
    entry.running = controller;
    entry.failures = [];
    entry.progress = { ...this.progress(entry.file.importId, phase, null), total };
    // A finish counts the rows queued before the stop as queued.
    if (phase === 'queuing') entry.progress.ready = entry.journaled.size;
    this.push(entry, true);
    entry.done = this.walk(entry, phase, controller.signal).then(
      () => undefined,
      async (error: unknown) => {
        this.options.log?.error(`records import ${entry.file.fileName} failed`, error);
        const reason = error instanceof Error ? error.message : String(error);
        if (phase === 'queuing' && !this.closing) {
          // All or none: what was queued before the failure is taken back.
          await this.discard(entry, { kind: 'failed', read: entry.progress.rows, reason }).catch(
            (failure: unknown) => this.discardFailed(entry, failure),
          );
          return;
        }
        this.end(
          entry,
          'failed',
          `The import stopped after ${rows(entry.progress.rows)}: ${reason}. Nothing was queued.`,
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
      // Queued before the stop a finish goes on from (counted as queued already).
      const queuedBefore = phase === 'queuing' ? entry.journaled.get(rowNumber) : undefined;
      if (queuedBefore !== undefined) {
        // A later row naming its record fails, as it did before the stop.
        if (plan.mode === 'update') namedBy.set(queuedBefore, rowNumber);
        entry.progress = progress;
        continue;
      }
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
      else if (Object.keys(row.changes).length === 0) progress.unchanged++;
      else if (phase === 'checking') progress.ready++;
      else {
        try {
          if (this.queueRow(entry, rowNumber, recordId, row.changes, catalogs)) progress.ready++;
          else progress.unchanged++;
        } catch (error) {
          if (!(error instanceof LedgerError)) throw error;
          fail([{ column: null, reason: error.message }]);
        }
      }
      entry.progress = progress;
      if (performance.now() - slice >= IMPORT_SLICE_MS) {
        if (phase === 'queuing') this.options.outbox.queuedElsewhere({ portalId, moduleId });
        this.push(entry, false);
        await nextTurn();
        slice = performance.now();
        if (signal.aborted) break;
      }
    }
    const p = entry.progress;
    const counts = `${rows(p.failing)} failing, ${rows(p.unchanged)} unchanged`;
    if (phase === 'queuing') {
      // Closing: the run stays journaled (and held) for the next start to finish or discard.
      if (this.closing) return;
      if (signal.aborted) return this.discard(entry, { kind: 'cancel', read: p.rows });
      // The last row is queued: the run ends, and every operation it held goes to the replay.
      this.runs.deleteRun(entry.file.importId);
      entry.journal = false;
      rmSync(entry.path, { force: true });
      this.options.outbox.queuedElsewhere({ portalId, moduleId });
    }
    if (phase === 'checking') {
      this.end(
        entry,
        signal.aborted ? 'cancelled' : 'checked',
        signal.aborted
          ? `Check cancelled after ${rows(p.rows)}. Nothing was queued.`
          : `${rows(p.ready)} ready, ${counts}. Nothing is queued until you confirm.`,
      );
    } else {
      this.end(entry, 'queued', `Queued ${rows(p.ready)} in the Outbox; ${counts} (not queued).`);
    }
  }

  /**
   * One ready row written to the outbox with its journal entry, in one transaction; false when
   * nothing was left to queue (its record holds the values now).
   */
  private queueRow(
    entry: Import,
    row: number,
    recordId: string | null,
    changes: Record<string, unknown>,
    catalogs: Map<string, EditCatalog>,
  ): boolean {
    const { ledger, repo } = this.options.outbox;
    const { importId, portalId } = entry.file;
    return repo.transaction(() => {
      const written =
        recordId === null
          ? queueCreate(ledger, entry.file, row, changes, catalogs)
          : queueUpdate(ledger, repo, portalId, recordId, row, changes, catalogs);
      if (written) this.runs.insertRow(importId, written);
      return written !== null;
    });
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
    this.closing = true;
    clearInterval(this.sweeper);
    for (const entry of this.imports.values()) entry.running?.abort();
  }
}
