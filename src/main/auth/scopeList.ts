/**
 * Scopes as the user types them, checked before anything is sent: "invalid scopes yield an 'Enter
 * a valid scope' error" (spec, Self Client), and the accounts page refuses them too. Format
 * `service_name.scope_name.operation_type` with the profile's service prefixes. Pure.
 */
import type { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';

/** "operation types include READ, CREATE, UPDATE, DELETE, ALL". */
const OPERATIONS = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'ALL'];
const SCOPE_PATTERN = /^([A-Za-z][A-Za-z0-9]*)\.([a-z_]+)\.([A-Za-z]+)$/;

export type ScopeListCheck = { ok: true; scopes: string[] } | { ok: false; error: string };

export function checkScopeList(
  input: string | readonly string[],
  profile: ServiceProfile,
): ScopeListCheck {
  const parts = (typeof input === 'string' ? [input] : input)
    .flatMap((text) => text.split(/[,\s]+/))
    .filter((scope) => scope !== '');
  const example = `${profile.scopePrefixes.api}.portals.READ`;
  if (parts.length === 0) {
    return { ok: false, error: `Enter a valid scope: none was given (for example ${example}).` };
  }
  const services = new Set(Object.values(profile.scopePrefixes).map((s) => s.toLowerCase()));
  for (const scope of parts) {
    const match = SCOPE_PATTERN.exec(scope);
    const [, service = '', , operation = ''] = match ?? [];
    if (!match || !OPERATIONS.includes(operation.toUpperCase())) {
      return {
        ok: false,
        error: `Enter a valid scope: "${scope}" is not service.name.OPERATION with an operation of ${OPERATIONS.join(', ')} (for example ${example}). Nothing was sent.`,
      };
    }
    if (!services.has(service.toLowerCase())) {
      return {
        ok: false,
        error: `Enter a valid scope: "${scope}" names the service "${service}", but ${profile.name} knows ${Object.values(profile.scopePrefixes).join(' and ')}. Nothing was sent.`,
      };
    }
  }
  return { ok: true, scopes: [...new Set(parts)] };
}
