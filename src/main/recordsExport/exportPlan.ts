/**
 * What an export runs, wherever it runs (the engine's thread or a thread of its own): the view to
 * open, its columns and cells, and the file to write. Plain data: it crosses to a worker thread as
 * it is (structured clone).
 */
import type { RecordsField } from '../../shared/ipc/areas/records';
import type { ExportFormat } from '../../shared/ipc/areas/recordsExport';
import type { CellOptions } from '../../shared/recordValues/cellText';
import type { RecordSort } from '../store/mirror/recordSort';
import { CsvFileWriter } from './csvFileWriter';
import type { BatchLayout } from './exportEncoding';
import type { ExportFileWriter } from './exportFileWriter';
import type { ExportJobEnd } from './exportJob';
import { XlsxFileWriter } from './xlsxFileWriter';

export interface ExportPlan {
  view: { portalId: string; moduleId: string; filter?: string; sort?: RecordSort };
  columns: Pick<RecordsField, 'key' | 'label' | 'type'>[];
  cells: CellOptions;
  format: ExportFormat;
  /** The finished file's path (written as `<file>.part` until complete). */
  file: string;
  /** The XLSX sheet's name (the module's plural name). */
  sheet: string;
}

/** An export that has opened its view: the rows it holds, and its end to come. */
export interface StartedExport {
  total: number;
  done: Promise<ExportJobEnd>;
  /** Stops it between batches; `done` then ends `cancelled`, the partial file deleted. */
  cancel(): void;
}

/** Starts a plan; rejects (nothing written) when the view cannot be opened. */
export type ExportStarter = (
  plan: ExportPlan,
  onRows: (rows: number) => void,
) => Promise<StartedExport>;

export function exportWriter(plan: ExportPlan): ExportFileWriter {
  return plan.format === 'csv'
    ? new CsvFileWriter(plan.file)
    : new XlsxFileWriter(plan.file, plan.sheet);
}

/** How the plan's batches are encoded (known before its view is opened). */
export function batchLayout(plan: ExportPlan): BatchLayout {
  return { format: plan.format, columns: plan.columns, cells: plan.cells };
}
