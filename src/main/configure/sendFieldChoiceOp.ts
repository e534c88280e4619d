/**
 * The outbox's send and description of the statuses and people operations (`status.*`,
 * `people.*`): each waits for its module's creation as layout changes do (settingsReplay.ts), is
 * replayed by sendStatusOp.ts or sendPeopleOp.ts, and tells the Configure view and the records
 * workspace to read again once the service answered (a status's records may have closed).
 */
import type { OutboxEntry } from '../../shared/ipc/areas/outbox';
import type { Send } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import type { Mirror } from '../store/mirror/mirror';
import { param } from './layoutOps';
import { peopleActionOf, peopleRequest, peopleSummary } from './peopleOps';
import { sendPeople } from './sendPeopleOp';
import { sendStatuses } from './sendStatusOp';
import { moduleApiName } from './settingsReplay';
import { statusActionOf, statusRequest, statusSummary } from './statusOps';

export const isFieldChoiceOp = (op: Pick<OutboxOp, 'kind' | 'action'>) =>
  statusActionOf(op) !== null || peopleActionOf(op) !== null;

export function fieldChoicesSend(deps: { changed(portalId: string): void }): Send {
  return async (ctx, op, client) => {
    const module = moduleApiName(ctx, op);
    if (statusActionOf(op) !== null) await sendStatuses(ctx, op, client, module);
    else await sendPeople(ctx, op, client, module);
    deps.changed(op.portalId);
    return 'done';
  };
}

/** How the Outbox shows one: the module and field, one line, and the call it will make. */
export function fieldChoicesDescribe(
  op: OutboxOp,
  mirror: Mirror,
): NonNullable<OutboxEntry['config']> {
  // Named as the mirror has it, else as a sync kept it when it found the module gone.
  const module = mirror.metadata.moduleNames(op.portalId, op.moduleId);
  const statuses = statusActionOf(op) !== null;
  return {
    action: op.action ?? (statuses ? 'status' : 'people'),
    target: `${module?.pluralName ?? 'module'} · ${statuses ? 'statuses' : String(param(op, 'field_label') ?? 'field')}`,
    summary: statuses ? statusSummary(op) : peopleSummary(op),
    request: statuses
      ? statusRequest(op, module?.apiName ?? null)
      : peopleRequest(op, module?.apiName ?? null),
  };
}
