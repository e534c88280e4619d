import type { Handlers } from '../bridge/dispatcher';
import { RecordsExportError, type RecordsExports } from '../recordsExport/recordsExports';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import { userFacingFor } from './userFacing';

type RecordsExportRequest =
  | 'records.export'
  | 'records.latestExport'
  | 'records.cancelExport'
  | 'records.exportLink'
  | 'records.showExport';

/** The export's and the mirror's refusals are written for the user: pass them on as they are. */
const userFacing = userFacingFor(RecordsExportError, RecordQueryError);

/** The records export: start, cancel, and the finished file offered (web: link; desktop: folder). */
export function recordsExportHandlers(
  exports: RecordsExports,
): Pick<Handlers, RecordsExportRequest> {
  return {
    'records.export': userFacing((args) => exports.start(args)),
    'records.latestExport': () => exports.latest(),
    'records.cancelExport': userFacing(({ exportId }) => exports.cancel(exportId)),
    'records.exportLink': userFacing(({ exportId }) => exports.link(exportId)),
    'records.showExport': userFacing(({ exportId }) => exports.show(exportId)),
  };
}
