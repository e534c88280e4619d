import type { Handlers } from '../bridge/dispatcher';
import { LedgerError } from '../outbox/ledgerError';
import { RecordsImportError, type RecordsImports } from '../recordsImport/recordsImports';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import { userFacingFor } from './userFacing';

type RecordsImportRequest =
  | 'records.importUpload'
  | 'records.importOpen'
  | 'records.importCheck'
  | 'records.importFailures'
  | 'records.importConfirm'
  | 'records.importCancel'
  | 'records.importState'
  | 'records.importsInterrupted';

/** The import's, the outbox's and the mirror's refusals are written for the user: passed on. */
const userFacing = userFacingFor(RecordsImportError, RecordQueryError, LedgerError);

/** The records import: the file in pieces, its columns, the check, the failing rows, the queuing. */
export function recordsImportHandlers(
  imports: RecordsImports,
): Pick<Handlers, RecordsImportRequest> {
  return {
    'records.importUpload': userFacing((args) => imports.upload(args)),
    'records.importOpen': userFacing((args) => imports.open(args)),
    'records.importCheck': userFacing((args) => imports.check(args)),
    'records.importFailures': userFacing(({ importId, offset, limit }) =>
      imports.failures(importId, offset, limit),
    ),
    'records.importConfirm': userFacing(({ importId }) => imports.confirm(importId)),
    'records.importCancel': userFacing(({ importId }) => imports.cancel(importId)),
    'records.importState': userFacing(({ importId }) => imports.state(importId)),
    'records.importsInterrupted': userFacing((args) => imports.interrupted(args)),
  };
}
