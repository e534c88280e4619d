/**
 * An export run where it is called: the view opened on this connection, then written a batch per
 * turn of the event loop (exportJob.ts). The engine's thread uses it when no export thread is
 * built (vitest runs the sources); the export thread runs this same code on its own connection.
 */
import type { Mirror } from '../store/mirror/mirror';
import { runExportJob } from './exportJob';
import { exportWriter, type ExportStarter } from './exportPlan';

export function inlineExportStarter(mirror: Mirror): ExportStarter {
  return (plan, onRows) => {
    // Opened before the file is made: a view the mirror refuses writes nothing.
    const view = mirror.query.openView(plan.view);
    const controller = new AbortController();
    const done = runExportJob({
      view,
      columns: plan.columns,
      cells: plan.cells,
      writer: exportWriter(plan),
      signal: controller.signal,
      onRows,
    });
    return Promise.resolve({ total: view.total, done, cancel: () => controller.abort() });
  };
}
