/**
 * The scopes a new sign-in suggests: for reading, every scope the app's read calls need; for
 * reading and writing, every scope any of its calls needs (the endpoint table is the source).
 */
import type { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { ENDPOINT_NAMES, ENDPOINTS } from '../api/client/endpoints';
import { requiredScopes } from '../api/client/requiredScopes';

export function defaultScopes(profile: ServiceProfile, access: 'read' | 'write'): string[] {
  const names =
    access === 'write'
      ? ENDPOINT_NAMES
      : ENDPOINT_NAMES.filter((name) => ENDPOINTS[name].method === 'GET');
  return requiredScopes(profile, names);
}
