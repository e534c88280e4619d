import type { Handlers } from '../bridge/dispatcher';

import type { BulkEditService } from '../bulkEdit/bulkEditService';
import { LedgerError } from '../outbox/ledgerError';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import { userFacingFor } from './userFacing';

type BulkEditRequest =
  | 'bulkEdit.preview'
  | 'bulkEdit.apply'
  | 'bulkEdit.groups'
  | 'bulkEdit.undo'
  | 'bulkEdit.askTrash'
  | 'bulkEdit.trash';

/** Refusals of the ledger and of the list (a filter the mirror cannot apply) are the user's to read. */
const userFacing = userFacingFor(LedgerError, RecordQueryError);

/** Bulk edits of records (issue 20): preview, queue, undo, and trash or restore many records. */
export function bulkEditHandlers(bulk: BulkEditService): Pick<Handlers, BulkEditRequest> {
  return {
    'bulkEdit.preview': userFacing((args) => bulk.preview(args)),
    'bulkEdit.apply': userFacing((args) => bulk.apply(args)),
    'bulkEdit.groups': userFacing(() => bulk.groups()),
    'bulkEdit.undo': userFacing(({ id }) => bulk.undo(id)),
    'bulkEdit.askTrash': userFacing((args) => bulk.askTrash(args)),
    'bulkEdit.trash': userFacing((args) => bulk.trash(args)),
  };
}
