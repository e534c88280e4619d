/**
 * Portals: the list (a bare array, as the spec says "returns array of portal objects") and one
 * portal's details wrapped in `portal_details`. Field names and types follow the spec's "Portal"
 * and "Portal details" tables exactly.
 */
import type { Route } from '../http/types';
import type { EmulatorState } from '../state';
import { readPage, requirePortal, type PortalRow } from './common';

const READ = ['PMS.portals.READ'] as const;

interface OwnerRow {
  zpuid: string;
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  is_client_user: number | null;
}

/** The portal owner as both portal tables show it ("owner: same shape as above"). */
function ownerOf(state: EmulatorState, portal: PortalRow) {
  const row = state.db
    .prepare(
      `SELECT u.zpuid, u.id, u.first_name, u.last_name, u.email, pu.is_client_user
       FROM users u LEFT JOIN portal_users pu ON pu.zpuid = u.zpuid AND pu.portal_id = ?
       WHERE u.zpuid = ?`,
    )
    .get(portal.id, portal.owner_zpuid) as OwnerRow | undefined;
  if (!row) return null;
  const fullName = `${row.first_name} ${row.last_name}`;
  return {
    zpuid: row.zpuid,
    full_name: fullName,
    // `name` is the display name, as in every other user summary of the emulator.
    name: fullName,
    first_name: row.first_name,
    last_name: row.last_name,
    id: row.id,
    is_client_user: row.is_client_user === 1,
    email: row.email,
  };
}

export function portalListItem(state: EmulatorState, portal: PortalRow) {
  const owner = ownerOf(state, portal);
  return {
    owner,
    portal_name: portal.portal_name,
    is_default_portal: portal.is_default === 1,
    profile_id: portal.profile_id,
    profile: { name: portal.profile_name, id: portal.profile_id },
    timezone: portal.timezone,
    portal_owner: owner?.id ?? null,
    org_name: portal.org_name,
    zsoid: portal.zsoid,
    id: String(portal.id),
    org_logo: portal.logo_url,
    bug_plan: portal.bug_plan,
    project_plan: portal.project_plan,
  };
}

export function portalDetails(state: EmulatorState, portal: PortalRow) {
  return {
    owner: ownerOf(state, portal),
    business_details: JSON.parse(portal.business_details) as Record<string, unknown>,
    logo_url: portal.logo_url,
    timezone: portal.timezone,
    name: portal.portal_name,
    // An integer here, a string in the list: both as the spec's tables say.
    id: portal.id,
    plan_details: {
      projects_service_plan: portal.project_plan,
      bugtracker_service_plan: portal.bug_plan,
    },
    org_name: portal.org_name,
    is_customdomain_enabled: portal.is_customdomain_enabled === 1,
  };
}

export const portalRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v3/portals',
    kind: 'api',
    scopes: READ,
    handle: (request, state) => {
      // A bare array has no room for page_info; page and per_page still select the slice.
      const page = readPage(request.query);
      const rows = state.db
        .prepare(
          `SELECT p.* FROM portals p JOIN portal_users pu ON pu.portal_id = p.id
           WHERE pu.zpuid = ? AND p.dc = ? ORDER BY p.id LIMIT ? OFFSET ?`,
        )
        .all(request.caller?.zpuid ?? '', request.dc, page.perPage, page.offset) as PortalRow[];
      return { body: rows.map((row) => portalListItem(state, row)) };
    },
  },
  {
    method: 'GET',
    template: '/api/v3/portal/{portal_id}',
    kind: 'api',
    scopes: READ,
    handle: (request, state) => ({
      body: { portal_details: portalDetails(state, requirePortal(state, request)) },
    }),
  },
];
