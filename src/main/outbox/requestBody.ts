/**
 * Request bodies from queued values (the API's display shapes) in the shapes the spec's "Custom
 * field value types" asks for: multi-select and multi-user updates as one `{add, remove}` object
 * worked out from base and value, users as `{zpuid}`, currency without the server's
 * formatted_amount, status as `{id}`, time stamps as `yyyy-MM-ddTHH:mm:ssZ` or at their own
 * offset. Pure.
 */
import { typeOf, type FieldTypes, type OpFields } from './outboxTypes';

function zpuidOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'zpuid' in value) {
    const zpuid = (value as { zpuid: unknown }).zpuid;
    return zpuid === null || zpuid === undefined ? null : String(zpuid);
  }
  return null;
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function zpuids(value: unknown): string[] {
  return Array.isArray(value) ? value.map(zpuidOf).filter((z): z is string => z !== null) : [];
}

const AT_OFFSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::(\d{2}))?(?:\.\d{1,3})?([+-]\d{2}:\d{2})$/;

/**
 * A time stamp in the spec's forms: one written at an offset keeps it (`...T10:00:00+05:30`: the
 * offset is a part of the value the user did not touch, issue 14), anything else is sent in UTC
 * (`2025-01-06T09:00:00.000Z` → `2025-01-06T09:00:00Z`, "yyyy-MM-dd'T'HH:mm:ss'Z'").
 */
function apiStamp(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const atOffset = AT_OFFSET.exec(value);
  if (atOffset) return `${atOffset[1]}:${atOffset[2] ?? '00'}${atOffset[3]}`;
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return value;
  return new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function scalar(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return type === 'description' ? '' : null;
  switch (type) {
    case 'status': {
      const id = typeof value === 'object' && 'id' in value ? (value as { id: unknown }).id : value;
      return { id: String(id) };
    }
    case 'user_pick_list': {
      const zpuid = zpuidOf(value);
      return zpuid === null ? null : { zpuid };
    }
    case 'currency': {
      const { currency_code: code, amount } = value as Record<string, unknown>;
      return code === undefined ? { amount } : { currency_code: code, amount };
    }
    case 'timestamp':
      return apiStamp(value);
    default:
      return value;
  }
}

/** The PATCH body for the fields named in `send`. */
export function updateBody(
  fields: OpFields,
  types: FieldTypes,
  send: readonly string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of send) {
    const entry = fields[field];
    if (!entry) continue;
    const type = typeOf(types, field);
    if (type === 'multi_select') {
      const before = names(entry.base);
      const after = names(entry.value);
      body[field] = [
        {
          add: after.filter((name) => !before.includes(name)),
          remove: before.filter((name) => !after.includes(name)),
        },
      ];
    } else if (type === 'multi_user') {
      const before = zpuids(entry.base);
      const after = zpuids(entry.value);
      body[field] = [
        {
          add: after.filter((z) => !before.includes(z)).map((zpuid) => ({ zpuid })),
          remove: before.filter((z) => !after.includes(z)).map((zpuid) => ({ zpuid })),
        },
      ];
    } else {
      body[field] = scalar(type, entry.value);
    }
  }
  return body;
}

/** The POST body of a record created offline: every field given a value. */
export function createBody(fields: OpFields, types: FieldTypes): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, entry] of Object.entries(fields)) {
    const type = typeOf(types, field);
    if (entry.value === null || entry.value === undefined) continue;
    if (type === 'multi_select') body[field] = names(entry.value);
    else if (type === 'multi_user') body[field] = zpuids(entry.value).map((zpuid) => ({ zpuid }));
    else body[field] = scalar(type, entry.value);
  }
  return body;
}
