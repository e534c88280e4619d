/**
 * Scope format `service_name.scope_name.operation_type` (spec, "Scopes"). `ALL` covers every
 * operation of its scope name; names compare case-insensitively, as the console accepts them.
 */
export function scopeCovers(granted: string, needed: string): boolean {
  const [gService, gName, gOp] = granted.toLowerCase().split('.');
  const [nService, nName, nOp] = needed.toLowerCase().split('.');
  if (gService !== nService || gName !== nName) return false;
  return gOp === nOp || gOp === 'all';
}

export function missingScope(granted: readonly string[], needed: readonly string[]): string | null {
  for (const scope of needed) {
    if (!granted.some((have) => scopeCovers(have, scope))) return scope;
  }
  return null;
}

const SCOPE_PATTERN = /^[A-Za-z][A-Za-z0-9]*\.[a-z_]+\.(READ|CREATE|UPDATE|DELETE|ALL)$/i;

/** Scopes arrive comma-separated in requests ("Multiple scopes are comma-separated"). */
export function parseScopeList(text: string): { scopes: string[]; invalid: string[] } {
  const scopes = text
    .split(/[,\s]+/)
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  return { scopes, invalid: scopes.filter((scope) => !SCOPE_PATTERN.test(scope)) };
}
