/**
 * Whether two values of one field mean the same, whatever shape they came in (the mirror's copy,
 * a fresh GET, the overlay): reverts, "already applied" and conflicts are all decided by it. Pure.
 *
 * Empty is one value (null, '', [] and a missing member); a status, a user or an option list is
 * compared by ids or names without order; a currency by code and amount (formatted_amount is
 * the server's rendering); a time stamp by its instant.
 */

function idOf(value: unknown): string | null {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null && 'id' in value) {
    return idOf((value as { id: unknown }).id);
  }
  return null;
}

function zpuidOf(value: unknown): string | null {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null && 'zpuid' in value) {
    return zpuidOf((value as { zpuid: unknown }).zpuid);
  }
  return null;
}

/** A comparable form of a field's value; null for empty. */
export function canonicalFieldValue(type: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && value === '') return null;
  if (Array.isArray(value) && value.length === 0) return null;
  switch (type) {
    case 'status':
      return idOf(value);
    case 'user_pick_list':
      return zpuidOf(value);
    case 'multi_user':
      return Array.isArray(value) ? value.map(zpuidOf).sort() : null;
    case 'multi_select':
      return Array.isArray(value) ? value.map((item) => String(item)).sort() : null;
    case 'currency': {
      if (typeof value !== 'object') return value;
      const { currency_code: code, amount } = value as Record<string, unknown>;
      return `${String(code ?? '')}|${String(amount)}`;
    }
    case 'timestamp': {
      const instant = typeof value === 'string' ? Date.parse(value) : NaN;
      return Number.isNaN(instant) ? value : instant;
    }
    case 'description':
    case 'multi_line':
      return typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : value;
    default:
      return value;
  }
}

export function sameFieldValue(type: string, a: unknown, b: unknown): boolean {
  return (
    JSON.stringify(canonicalFieldValue(type, a)) === JSON.stringify(canonicalFieldValue(type, b))
  );
}
