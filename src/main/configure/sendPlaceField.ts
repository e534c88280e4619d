/**
 * The replay of a field placed on a layout or moved on it (`layout.placeField`): one PUT
 * settings/fields naming the field by id, its layout, section and exact place. Exactly once
 * without a lookup: a PUT with an id is an update that leaves the field at that place however
 * often it is sent (placeFieldOps.ts, placeFieldBody), so after a lost answer or a kill it is
 * simply sent again. sendLayoutOp.ts dispatches here (after refusing temporary layout and section
 * ids left by a discarded creation) and stores the module's configuration after the answer.
 */
import type { ApiClient } from '../api/client/apiClient';
import { ChangeRefused } from '../outbox/replayFailure';
import type { SendContext } from '../outbox/sendContext';
import type { OutboxOp } from '../outbox/outboxTypes';
import { param } from './layoutOps';
import { placeFieldBody } from './placeFieldOps';
import { copiedSectionId } from './settingsReplay';

export async function sendPlaceField(
  ctx: SendContext,
  op: OutboxOp,
  client: ApiClient,
  module: string,
): Promise<void> {
  const fieldId = String(param(op, 'field_id'));
  if (fieldId.startsWith('tmp-')) {
    throw new ChangeRefused(
      'This change places a field whose creation was discarded or refused; discard this change too.',
    );
  }
  const layoutId = String(param(op, 'layout_id'));
  let sectionId: string | undefined;
  if (param(op, 'section_copied') === true) {
    sectionId = await copiedSectionId(
      ctx,
      client,
      op,
      module,
      layoutId,
      String(param(op, 'section_name')),
    );
  }
  const body = placeFieldBody(op, module, sectionId);
  ctx.repo.markSending(op.seq, JSON.stringify(body));
  await client.putField({ portal_id: op.portalId, body: body as never }, ctx.call);
}
