import type { Handlers } from '../bridge/dispatcher';

import { LedgerError } from '../outbox/ledgerError';
import type { OutboxService } from '../outbox/outboxService';
import { userFacingFor } from './userFacing';

type OutboxRequest =
  | 'outbox.form'
  | 'outbox.edit'
  | 'outbox.create'
  | 'outbox.trash'
  | 'outbox.restore'
  | 'outbox.deleteRecord'
  | 'outbox.comment'
  | 'outbox.pendingComments'
  | 'outbox.list'
  | 'outbox.retry'
  | 'outbox.discard'
  | 'outbox.resolve'
  | 'outbox.setWorkOffline'
  | 'outbox.status'
  | 'outbox.history'
  | 'outbox.exportHistory';

/** The ledger's refusals are written for the user: pass them on as they are. */
const userFacing = userFacingFor(LedgerError);

/** The outbox: local edits queued for replay, their conflicts, and the offline switch. */
export function outboxHandlers(outbox: OutboxService): Pick<Handlers, OutboxRequest> {
  return {
    'outbox.form': userFacing(({ portalId, moduleId, recordId }) =>
      outbox.form(portalId, moduleId, recordId),
    ),
    'outbox.edit': userFacing(({ portalId, recordId, changes }) =>
      outbox.edit(portalId, recordId, changes),
    ),
    'outbox.create': userFacing(({ portalId, moduleId, values }) =>
      outbox.create(portalId, moduleId, values),
    ),
    'outbox.trash': userFacing(({ portalId, recordId }) => outbox.trash(portalId, recordId, false)),
    'outbox.restore': userFacing(({ portalId, recordId }) =>
      outbox.trash(portalId, recordId, true),
    ),
    'outbox.deleteRecord': userFacing(({ portalId, recordId }) =>
      outbox.deleteForever(portalId, recordId),
    ),
    'outbox.comment': userFacing((args) => outbox.comment(args)),
    'outbox.pendingComments': userFacing(({ portalId, recordId }) =>
      outbox.pendingComments(portalId, recordId),
    ),
    'outbox.list': userFacing((filter) => outbox.list(filter ?? {})),
    'outbox.retry': userFacing((args) => outbox.retry(args?.id)),
    'outbox.discard': userFacing(({ id }) => outbox.discard(id)),
    'outbox.resolve': userFacing(({ id, fields, record }) => outbox.resolve(id, fields, record)),
    'outbox.setWorkOffline': userFacing(({ on }) => outbox.setWorkOffline(on)),
    'outbox.status': () => outbox.status(),
    'outbox.history': ({ offset, limit, ...query }) => outbox.historyPage(query, offset, limit),
    'outbox.exportHistory': userFacing(({ format, ...query }) =>
      outbox.exportHistory(query, format),
    ),
  };
}
