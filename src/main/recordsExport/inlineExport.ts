/**
 * An export run where it is called: the view opened on this connection, then written a batch per
 * turn of the event loop (exportJob.ts). The engine's thread uses it when no export thread is
 * built (vitest runs the sources); the export thread runs this same code on its own connection,
 * its batches made by helper threads (`batchesOf`, exportHelpers.ts).
 */
import type { Mirror } from '../store/mirror/mirror';
import type { RecordViewRows } from '../store/mirror/recordQuery';
import { viewBatches, type ExportBatches } from './exportBatches';
import type { BatchLayout } from './exportEncoding';
import { runExportJob } from './exportJob';
import { batchLayout, exportWriter, type ExportPlan, type ExportStarter } from './exportPlan';

/** Where an opened view's batches come from (default: read and encoded on this thread). */
export type BatchesOf = (
  view: RecordViewRows,
  layout: BatchLayout,
  plan: ExportPlan,
) => ExportBatches;

export function inlineExportStarter(
  mirror: Mirror,
  batchesOf: BatchesOf = (view, layout) => viewBatches(view, layout),
): ExportStarter {
  return (plan, onRows) => {
    // Opened before the file is made: a view the mirror refuses writes nothing.
    const view = mirror.query.openView(
      plan.view,
      plan.columns.map((column) => column.key),
    );
    const controller = new AbortController();
    const layout = batchLayout(plan);
    const done = runExportJob({
      batches: batchesOf(view, layout, plan),
      labels: plan.columns.map((column) => column.label),
      writer: exportWriter(plan),
      signal: controller.signal,
      onRows,
    });
    return Promise.resolve({ total: view.total, done, cancel: () => controller.abort() });
  };
}
