/**
 * The scopes the sign-in must ask for so every endpoint the app uses is allowed: the union of the
 * table's scopes, with this profile's prefixes ("Multiple scopes are comma-separated").
 */
import { scopeName, type ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from './endpoints';

export function requiredScopes(
  profile: ServiceProfile,
  names: readonly EndpointName[] = ENDPOINT_NAMES,
): string[] {
  const scopes = new Set<string>();
  for (const name of names) {
    for (const scope of ENDPOINTS[name].scopes) {
      scopes.add(scopeName(profile, scope.service, scope.name, scope.operation));
    }
  }
  return [...scopes].sort();
}
