/**
 * The admin surface's "someone else changes this record": a record PATCH made as another member
 * of the portal, without a token and outside the rate limit, so a test or the demo portal can
 * bring about what a colleague's edit would (new values, a new last_updated_time) and show the
 * app's conflict handling. The checks and the write are the API's own (`patchEntity`).
 */
import { apiErrors } from '../http/apiError';
import type { ApiRequest, Route } from '../http/types';
import { prepared } from '../model/prepared';
import { recordScope, requireEntity } from '../records/recordScope';
import type { EmulatorState } from '../state';
import { demoUser } from '../accounts/tokenStore';
import { bodyObject, parseId, text } from './common';
import { patchEntity } from './entities';

interface Member {
  zpuid: string;
  email: string;
  name: string;
}

/** The active, accepted members of a portal, in the seed's order. */
function portalMembers(state: EmulatorState, portalId: number): Member[] {
  return prepared(
    state.db,
    `SELECT u.zpuid, u.email, u.first_name || ' ' || u.last_name AS name
     FROM portal_users pu JOIN users u ON u.zpuid = pu.zpuid
     WHERE pu.portal_id = ? AND pu.invite_status = 'accepted' AND u.status = 'active'
     ORDER BY u.id`,
  ).all(portalId) as Member[];
}

/**
 * Who makes the change: the member with `email`, or else the first member who is not the demo
 * user (the one --auto-approve and the Self Client sign in as), so it is never the app's own user.
 */
function changer(
  state: EmulatorState,
  portal: { id: number; dc: string },
  email: string | undefined,
): Member {
  const members = portalMembers(state, portal.id);
  if (email !== undefined) {
    const found = members.find((m) => m.email.toLowerCase() === email.trim().toLowerCase());
    if (!found) {
      throw apiErrors.invalidParameter(
        `email: "${email}" is not an active member of portal ${portal.id}.`,
      );
    }
    return found;
  }
  const own = demoUser(state, portal.dc).zpuid;
  const other = members.find((m) => m.zpuid !== own);
  if (!other) {
    throw apiErrors.invalidParameter(`portal ${portal.id} has no member besides the demo user.`);
  }
  return other;
}

export const recordChangeRoute: Route = {
  method: 'POST',
  template: '/__emulator/record-change',
  kind: 'admin',
  handle: (request, state) => {
    const body = bodyObject(request);
    const portalId = parseId(text(body, 'portal_id', 20, true), 'portal_id');
    const module = text(body, 'module', 100, true) as string;
    const entityId = text(body, 'entity_id', 20, true) as string;
    const changes = body.changes;
    if (changes === null || typeof changes !== 'object' || Array.isArray(changes)) {
      throw apiErrors.invalidParameter(
        'changes must be an object of record fields, as a record PATCH takes.',
      );
    }
    const portal = prepared(state.db, 'SELECT id, dc FROM portals WHERE id = ?').get(portalId) as
      { id: number; dc: string } | undefined;
    if (!portal) throw apiErrors.notFound(`Portal ${portalId}`);
    const who = changer(state, portal, text(body, 'email', 200));
    // The record route's own lookups, as this member calling the API of the portal's data center.
    const asMember: ApiRequest = {
      ...request,
      dc: portal.dc,
      params: { portal_id: String(portalId), scope_path: 'projects', module_api_name: module },
      caller: { zpuid: who.zpuid, clientId: 'emulator-admin', scopes: [], dc: portal.dc },
    };
    const scope = recordScope(state, asMember);
    const row = requireEntity(state, scope, entityId);
    const reply = patchEntity(state, scope, row, changes as Record<string, unknown>, who.zpuid);
    const { entity } = JSON.parse(String(reply.raw)) as { entity: unknown };
    return {
      body: { entity, changed_by: { zpuid: who.zpuid, name: who.name, email: who.email } },
    };
  },
};
