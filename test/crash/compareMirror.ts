/**
 * The crash harness's verdict on a mirror: does it hold exactly the server's records, field by
 * field? Pure: the server's records as the API lists them, the mirror's rows as stored.
 */
import { READ_ENTITY_FIXED_FIELDS } from '@portaldesk/portal-api/domain/readEntity';

/** A record as the API lists it (`GET .../entities`). */
export type ServerRecord = Record<string, unknown> & {
  id: string;
  name: string;
  description?: string | null;
  status: { id: string };
  last_updated_time: string;
};

/** A row of the mirror's `records` table, listed (not trashed) and not local-only. */
export interface MirrorRow {
  id: string;
  name: string;
  description: string;
  status_id: string | null;
  last_updated_time: string;
  custom: string;
}

const FIXED = new Set(READ_ENTITY_FIXED_FIELDS);

/** The custom fields of a listed record, as the mirror keeps them (mapRecord's `custom`). */
function customOf(record: ServerRecord): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !FIXED.has(key)));
}

/** Sorted keys, so two JSON texts of the same object compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Every way `mirror` differs from `server` (one module), at most `limit` of them; [] when equal. */
export function mirrorDifferences(
  server: readonly ServerRecord[],
  mirror: readonly MirrorRow[],
  limit = 10,
): string[] {
  const problems: string[] = [];
  const stored = new Map(mirror.map((row) => [row.id, row]));
  const listed = new Set(server.map((record) => record.id));
  for (const row of mirror) {
    if (!listed.has(row.id)) problems.push(`${row.id}: in the mirror, not on the server`);
  }
  for (const record of server) {
    const row = stored.get(record.id);
    if (!row) {
      problems.push(`${record.id}: on the server, not in the mirror`);
      continue;
    }
    const expected = {
      name: record.name,
      description: record.description ?? '',
      status_id: record.status.id,
      last_updated_time: record.last_updated_time,
      custom: canonical(customOf(record)),
    };
    const actual = {
      name: row.name,
      description: row.description,
      status_id: row.status_id,
      last_updated_time: row.last_updated_time,
      custom: canonical(JSON.parse(row.custom)),
    };
    for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
      if (expected[key] !== actual[key]) {
        problems.push(
          `${record.id}.${key}: server ${JSON.stringify(expected[key])}, mirror ${JSON.stringify(actual[key])}`,
        );
      }
    }
  }
  return problems.slice(0, limit);
}
