/**
 * An export's batches made by helper threads (exportHelperThread.ts, the export thread's own
 * script started again), each on a read-only connection of its own: reading the rows and laying
 * out their cells is most of an export's time (about 12 µs a row against 1–2 µs to write CSV), so
 * the export thread hands the view's row keys to the helpers, asks each for every n-th batch and
 * only writes. Batches come back in any order and are given to the loop in the view's order; at
 * most AHEAD_PER_HELPER batches per helper are asked ahead of the one being written, so memory
 * stays a few batches whatever the view's size.
 */
import { Worker } from 'node:worker_threads';
import type { RecordViewRows } from '../store/mirror/recordQuery';
import { EXPORT_BATCH_ROWS, viewBatches, type ExportBatches } from './exportBatches';
import type { BatchLayout, EncodedBatch } from './exportEncoding';
import type { ExportHelperData, ExportHelperKeys, ExportHelperMessage } from './exportHelperThread';
import type { ExportPlan } from './exportPlan';

export interface ExportHelpersOptions {
  /** The export thread's script (it runs as a helper when given ExportHelperData). */
  script: string | URL;
  /** The store's database file. */
  file: string;
  nativeBinding?: string | undefined;
  /** Helper threads to start (exportHelperCount). */
  helpers: number;
  batchRows?: number;
}

/** Batches asked ahead of the one being written, per helper: each has its next while one is sent. */
const AHEAD_PER_HELPER = 2;
/**
 * A view of fewer batches than this is read on the export thread: starting a helper (its script,
 * its connection) costs tens of milliseconds, more than a few batches take to make.
 */
const HELPERS_FROM_BATCHES = 4;

/**
 * Ours: helper threads for an export on a machine of `cores` logical processors: one per core, at
 * most 4. The export thread itself mostly writes (CSV) or zips (XLSX) meanwhile; the engine's
 * thread shares the cores for the seconds an export of a million rows runs (its answers are short).
 */
export function exportHelperCount(cores: number): number {
  return Math.max(1, Math.min(4, Math.floor(cores)));
}

/**
 * Helper threads started before the view they will read is opened: a thread's start (its script,
 * its connection, the module's fields and statuses) took about 0.3–0.4 s of a million-row export,
 * all of it spent while the export thread sorted the view and nothing else ran (bench/README.md,
 * "Helpers started with the export"). They wait for the view's row keys (`batchesOf`).
 */
export interface StartedHelpers {
  /**
   * Batches of `view` (the one this thread opened for the same portal, module and layout): made by
   * the helpers, or on this thread when the view is small (the helpers then ended). Once.
   */
  batchesOf(view: RecordViewRows): ExportBatches;
  /** Ends the helpers (a view that could not be opened); safe to call more than once. */
  close(): Promise<void>;
}

export function startExportHelpers(
  options: ExportHelpersOptions,
  portalView: { portalId: string; moduleId: string },
  layout: BatchLayout,
): StartedHelpers {
  const batchRows = options.batchRows ?? EXPORT_BATCH_ROWS;
  const started = Math.max(0, Math.floor(options.helpers));
  const workers = Array.from({ length: started }, () => {
    const workerData: ExportHelperData = {
      portaldeskExportHelper: true,
      file: options.file,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      view: { portalId: portalView.portalId, moduleId: portalView.moduleId },
      layout,
      batchRows,
    };
    return new Worker(options.script, { workerData });
  });

  const waiting = new Map<
    number,
    { resolve: (batch: EncodedBatch) => void; reject: (error: Error) => void }
  >();
  let failure: Error | null = null;
  let closed = false;
  /** Helpers ended because the view needs fewer: their exit is not a failure. */
  const idle = new Set<Worker>();

  const failAll = (error: Error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) reject(failure);
    waiting.clear();
  };
  workers.forEach((worker, i) => {
    worker.on('message', (message: ExportHelperMessage) => {
      if ('failed' in message) {
        failAll(new Error(message.failed));
        return;
      }
      const waiter = waiting.get(message.batch);
      waiting.delete(message.batch);
      waiter?.resolve(message.encoded);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => {
      if (!closed && !idle.has(worker))
        failAll(new Error(`the export's helper thread ${i + 1} stopped (exit code ${code})`));
    });
  });
  const close = async () => {
    if (closed) return;
    closed = true;
    failAll(new Error('the export ended'));
    await Promise.all(workers.map((worker) => worker.terminate()));
  };

  return {
    close,
    batchesOf(view) {
      const count = Math.ceil(view.total / batchRows);
      if (count < HELPERS_FROM_BATCHES || workers.length === 0) {
        void close();
        return viewBatches(view, layout, batchRows);
      }
      const helpers = Math.min(workers.length, count);
      // Helpers past the batches' count have nothing to make.
      for (const worker of workers.slice(helpers)) {
        idle.add(worker);
        void worker.terminate();
      }
      const keys = Float64Array.from(view.keys);
      for (const worker of workers.slice(0, helpers)) {
        const message: ExportHelperKeys = { keys };
        worker.postMessage(message);
      }
      const asked = new Map<number, Promise<EncodedBatch>>();
      let nextToAsk = 0;
      const ask = (index: number) => {
        const answer = new Promise<EncodedBatch>((resolve, reject) => {
          if (failure) reject(failure);
          else waiting.set(index, { resolve, reject });
        });
        // Batches asked ahead may never be taken (a cancel, a failure): their rejection is not news.
        answer.catch(() => undefined);
        asked.set(index, answer);
        if (!failure) workers[index % helpers]!.postMessage({ batch: index });
      };
      return {
        total: view.total,
        batchRows,
        batch(index) {
          while (nextToAsk < count && nextToAsk <= index + helpers * AHEAD_PER_HELPER) {
            ask(nextToAsk++);
          }
          const answer = asked.get(index);
          asked.delete(index);
          return (
            answer ?? Promise.reject(new Error(`export batch ${index} is past the view's end`))
          );
        },
        close,
      };
    },
  };
}

/** Batches of an opened view made by helper threads started for it now. */
export function helperBatches(
  options: ExportHelpersOptions,
  view: RecordViewRows,
  layout: BatchLayout,
  plan: ExportPlan,
): ExportBatches {
  const count = Math.ceil(view.total / (options.batchRows ?? EXPORT_BATCH_ROWS));
  if (count < HELPERS_FROM_BATCHES || options.helpers < 1) {
    return viewBatches(view, layout, options.batchRows ?? EXPORT_BATCH_ROWS);
  }
  return startExportHelpers(
    { ...options, helpers: Math.min(options.helpers, count) },
    plan.view,
    layout,
  ).batchesOf(view);
}
