/**
 * The records export service: one export at a time, run in the background (on a thread of its
 * own where the build has one, else on the engine's thread a batch per turn of the event loop),
 * its progress pushed as `records.exportProgress`; a cancel deletes the partial file. Finished files are offered as a download link (web mode)
 * or shown in their folder (desktop). Every refusal is a RecordsExportError in words.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import type {
  ExportArgs,
  ExportFormat,
  ExportProgress,
} from '../../shared/ipc/areas/recordsExport';
import { EXPORT_FILE_PATH_PREFIX } from '../../shared/ipc/webProtocol';
import { SHEET_CELL_MAX_UNITS } from '../../shared/recordValues/xmlText';
import type { EventHub } from '../bridge/eventHub';
import { DownloadLinks } from '../backups/downloadLinks';
import { RecordsReader } from '../records/recordsReader';
import type { Mirror } from '../store/mirror/mirror';
import { EXPORTS_FOLDER, exportFileName, freeName, prepareExportsFolder } from './exportFiles';
import type { ExportStarter, StartedExport } from './exportPlan';
import { inlineExportStarter } from './inlineExport';

export class RecordsExportError extends Error {}

/** Ours: finished exports the service remembers for links and "show in folder" (the files kept). */
const REMEMBERED = 20;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export interface RecordsExportsOptions {
  db: Database.Database;
  mirror: Mirror;
  dataDir: string;
  events: EventHub;
  /** Desktop only: shows a file in the system's file manager. */
  showInFolder?: (file: string) => void;
  now?: () => number;
  log?: { error(message: string, error: unknown): void };
  /** Where exports run (exportThread.ts); on the engine's thread by default. */
  starter?: ExportStarter;
}

interface Running {
  progress: ExportProgress;
  controller: AbortController;
  file: string;
  startedAt: number;
  done: Promise<void>;
}

const count = (n: number) => n.toLocaleString('en-US');

export class RecordsExports {
  private readonly reader: RecordsReader;
  private readonly links: DownloadLinks;
  private readonly now: () => number;
  private running: Running | null = null;
  /** Set while a start makes its file: a second start then is refused like one during a run. */
  private starting = false;
  private readonly ended = new Map<string, { progress: ExportProgress; file: string }>();
  private nextId = 1;

  private readonly starter: ExportStarter;

  constructor(private readonly options: RecordsExportsOptions) {
    this.starter = options.starter ?? inlineExportStarter(options.mirror);
    this.reader = new RecordsReader(options.db, options.mirror);
    this.now = options.now ?? Date.now;
    this.links = new DownloadLinks(this.now, EXPORT_FILE_PATH_PREFIX);
  }

  get folder(): string {
    return path.join(this.options.dataDir, EXPORTS_FOLDER);
  }

  /** Starts writing the view; answers with its first progress (the view's total known). */
  async start(args: ExportArgs): Promise<ExportProgress> {
    if (this.running || this.starting) {
      throw new RecordsExportError(
        `An export is running${this.running ? ` (${this.running.progress.fileName})` : ''}. Nothing new was started; wait for it or cancel it.`,
      );
    }
    const columnsOf = this.reader.columns(args.portalId, args.moduleId);
    const byKey = new Map(columnsOf.fields.map((field) => [field.key, field]));
    const columns = args.columns.map((key) => {
      const field = byKey.get(key);
      if (!field) {
        throw new RecordsExportError(
          `The column "${key}" is not a field of this module any more. Nothing was exported; choose the columns again.`,
        );
      }
      return field;
    });
    const locale = args.locale === undefined ? undefined : supportedLocale(args.locale);
    const module = this.options.mirror.metadata
      .modules(args.portalId)
      .find((m) => m.id === args.moduleId);
    const viewInput = {
      portalId: args.portalId,
      moduleId: args.moduleId,
      ...(args.filter === undefined ? {} : { filter: args.filter }),
      ...(args.sort === undefined ? {} : { sort: args.sort }),
    };
    // Refused here, before the folder is tidied: a view the mirror cannot list changes nothing.
    this.options.mirror.query.checkView(viewInput);
    const folder = this.folder;
    const exportId = String(this.nextId++);
    const controller = new AbortController();
    // Rows written before the start's answer is in are kept for it (a thread reports at once).
    let early = 0;
    let onRows: (rows: number) => void = (rows) => {
      early = rows;
    };
    let fileName: string;
    let file: string;
    let started: StartedExport;
    this.starting = true;
    try {
      fileName = await usableFolder(folder, () =>
        freeName(folder, exportFileName(module?.pluralName ?? 'records', args.format, this.now())),
      );
      file = path.join(folder, fileName);
      started = await this.starter(
        {
          view: viewInput,
          columns: columns.map(({ key, label, type }) => ({ key, label, type })),
          cells: {
            values: args.values,
            context: { timeZone: columnsOf.timeZone, ...(locale ? { locale } : {}) },
            // An XLSX cell is typed text: a formula is never run from it, so it stays as it is.
            defuse: args.format === 'csv',
          },
          format: args.format,
          file,
          sheet: module?.pluralName ?? 'Records',
        },
        (rows) => onRows(rows),
      );
    } finally {
      this.starting = false;
    }
    controller.signal.addEventListener('abort', () => started.cancel(), { once: true });
    const running: Running = {
      progress: {
        exportId,
        portalId: args.portalId,
        moduleId: args.moduleId,
        format: args.format,
        fileName,
        state: 'running',
        rows: 0,
        total: started.total,
        etaSeconds: null,
        message: null,
      },
      controller,
      file,
      startedAt: this.now(),
      done: Promise.resolve(),
    };
    this.running = running;
    onRows = (rows) => this.advance(running, rows);
    if (early > 0) this.advance(running, early);
    running.done = started.done.then(
      (end) => this.end(running, end.state, end.rows, null, end.cut),
      (error: unknown) => this.end(running, 'failed', running.progress.rows, error, 0),
    );
    this.push(running.progress);
    return running.progress;
  }

  private advance(running: Running, rows: number): void {
    const elapsed = (this.now() - running.startedAt) / 1000;
    const left = running.progress.total - rows;
    running.progress = {
      ...running.progress,
      rows,
      etaSeconds: rows > 0 && elapsed > 0 ? Math.round((left * elapsed) / rows) : null,
    };
    this.options.events.push('records.exportProgress', running.progress.exportId, () =>
      this.running === running ? running.progress : null,
    );
  }

  private end(
    running: Running,
    state: ExportProgress['state'],
    rows: number,
    error: unknown,
    cut: number,
  ): void {
    const { total, fileName } = running.progress;
    let message: string;
    if (state === 'done') {
      message =
        total === 0
          ? `No records match this view: ${fileName} holds the header row only.`
          : `Exported ${count(rows)} ${rows === 1 ? 'record' : 'records'} to ${fileName}.`;
      if (cut > 0) {
        message += ` ${count(cut)} ${cut === 1 ? 'cell was' : 'cells were'} longer than the ${count(SHEET_CELL_MAX_UNITS)} characters an Excel cell holds: cut there, ending with "…" (the records are unchanged, and importing this file leaves them whole). Export as CSV to have every text whole.`;
      }
    } else if (state === 'cancelled') {
      message = `Export cancelled after ${count(rows)} of ${count(total)} records. The partial file was deleted; nothing else changed.`;
    } else {
      const reason = error instanceof Error ? error.message : String(error);
      this.options.log?.error(`records export ${fileName} failed`, error);
      message = `The export stopped after ${count(rows)} of ${count(total)} records: ${reason}. The partial file was deleted; the mirror is unchanged. Check the free space of ${this.folder} and export again.`;
    }
    const progress: ExportProgress = {
      ...running.progress,
      state,
      rows,
      etaSeconds: null,
      message,
    };
    running.progress = progress;
    this.running = null;
    this.ended.set(progress.exportId, { progress, file: running.file });
    for (const id of this.ended.keys()) {
      if (this.ended.size <= REMEMBERED) break;
      this.ended.delete(id);
    }
    this.push(progress);
  }

  /** Pushed at once: a start and an end are never folded into a later push. */
  private push(progress: ExportProgress): void {
    this.options.events.push('records.exportProgress', progress.exportId, () => progress);
    this.options.events.flush('records.exportProgress');
  }

  /** The running export, else the one that ended last (null before the first). */
  latest(): ExportProgress | null {
    if (this.running) return this.running.progress;
    return [...this.ended.values()].at(-1)?.progress ?? null;
  }

  /** Stops a running export; answers with its end (an ended one as it ended). */
  async cancel(exportId: string): Promise<ExportProgress> {
    const running = this.running;
    if (running && running.progress.exportId === exportId) {
      running.controller.abort();
      await running.done;
      return this.ended.get(exportId)!.progress;
    }
    const ended = this.ended.get(exportId);
    if (ended) return ended.progress;
    throw new RecordsExportError(`There is no export ${exportId} (PortalDesk may have restarted).`);
  }

  private finishedFile(exportId: string): { file: string; fileName: string; format: ExportFormat } {
    const ended = this.ended.get(exportId);
    if (!ended || ended.progress.state !== 'done') {
      throw new RecordsExportError(
        'This export has no finished file (it is running, was cancelled or failed). Export the view again.',
      );
    }
    return { file: ended.file, fileName: ended.progress.fileName, format: ended.progress.format };
  }

  /** Web mode: a link that downloads a finished export for a while. */
  link(exportId: string): { path: string; fileName: string; expiresAt: string } {
    const { fileName } = this.finishedFile(exportId);
    return { ...this.links.mint(exportId), fileName };
  }

  /** The file a download link's token opens, or null (the web server answers 404). */
  resolveDownload(token: string): { file: string; fileName: string; contentType: string } | null {
    const exportId = this.links.resolve(token);
    const ended = exportId === null ? undefined : this.ended.get(exportId);
    if (!ended || ended.progress.state !== 'done') return null;
    return {
      file: ended.file,
      fileName: ended.progress.fileName,
      contentType: CONTENT_TYPES[ended.progress.format],
    };
  }

  /** Desktop: the finished file in the system's file manager. */
  show(exportId: string): { shown: true } {
    const { file } = this.finishedFile(exportId);
    if (!this.options.showInFolder) {
      throw new RecordsExportError(
        `Showing a file needs the desktop app; the export is at ${file}.`,
      );
    }
    this.options.showInFolder(file);
    return { shown: true };
  }

  /** Resolves when no export runs (tests, and closing). */
  async idle(): Promise<void> {
    await this.running?.done;
  }

  /** Cancels a running export (its partial file deleted) before the store closes. */
  close(): Promise<void> {
    this.running?.controller.abort();
    return this.idle();
  }
}

/**
 * The exports folder made ready and `name` found in it; a folder that cannot be made or read
 * (a file in its place, no permission) is refused in words, before anything is written.
 */
async function usableFolder(folder: string, name: () => Promise<string>): Promise<string> {
  try {
    await prepareExportsFolder(folder);
    return await name();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RecordsExportError(
      `The exports folder ${folder} cannot be used (${reason}). Nothing was exported and the mirror is unchanged: check that the folder can be written (its permissions, that no file has its name) and export again.`,
    );
  }
}

/** The locale if the engine's Intl knows it; else refused in words. */
function supportedLocale(locale: string): string {
  try {
    const [known] = Intl.NumberFormat.supportedLocalesOf([locale]);
    if (known) return known;
  } catch {
    // Not a language tag Intl reads: refused below.
  }
  throw new RecordsExportError(
    `The language ${locale} is not one the engine can format numbers and dates in. Nothing was exported; choose raw values or another language.`,
  );
}
