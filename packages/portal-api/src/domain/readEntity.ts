/**
 * The fast reader of a record (see parseEach's registerFastParser): a page holds 200 records,
 * and zod's generic checks of each cost more than parsing, mapping and storing it together.
 * Returns exactly what the `Entity` schema returns for the shapes the service sends (ids as
 * strings of digits, texts and flags or null, ISO times), with the same key order (it decides
 * the stored `custom` text); anything else returns undefined and the schema decides, so errors
 * and unusual shapes read exactly as before. test/unit/shared/readEntity.test.ts holds the two
 * against each other.
 */
import { z } from 'zod';
import type { Entity } from './entityFields';
import { canonicalInstant } from './instant';

/** The record's fixed members in the schema's order; everything else is a custom field. */
const FIXED = [
  'id',
  'name',
  'description',
  'status',
  'layout',
  'project',
  'owner',
  'is_closed',
  'is_external',
  'created_time',
  'last_updated_time',
  'trashed_time',
] as const;
const FIXED_SET: ReadonlySet<string> = new Set(FIXED);

/** The pattern of `z.iso.datetime({ offset: true })` (refs.ts IsoDateTime), from zod itself. */
const ISO_DATE_TIME = z.regexes.datetime({ offset: true, local: false, precision: undefined });
const DIGITS_ID = /^\d{1,20}$/;

/** Marks "not sure": the caller falls back to the schema. */
const UNSURE = Symbol('unsure');
type Read<T> = T | typeof UNSURE;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function id(value: unknown): Read<string> {
  return typeof value === 'string' && DIGITS_ID.test(value) ? value : UNSURE;
}

/** OptionalText: a string, or null for null and absent. */
function text(value: unknown): Read<string | null> {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : UNSURE;
}

/** OptionalFlag: a boolean, false for null and absent. */
function flag(value: unknown): Read<boolean> {
  if (value === undefined || value === null) return false;
  return typeof value === 'boolean' ? value : UNSURE;
}

function time(value: unknown): Read<string> {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) ? canonicalInstant(value) : UNSURE;
}

function optionalTime(value: unknown): Read<string | null> {
  return value === undefined || value === null ? null : time(value);
}

/**
 * A loose object: the known members first, in the schema's order, then the others as sent.
 * `read` gives each known member's value from the input.
 */
function looseObject(
  value: unknown,
  known: readonly string[],
  read: (key: string, input: Record<string, unknown>) => unknown,
): Read<Record<string, unknown>> {
  if (!isPlainObject(value)) return UNSURE;
  const out: Record<string, unknown> = {};
  for (const key of known) {
    const member = read(key, value);
    if (member === UNSURE) return UNSURE;
    out[key] = member;
  }
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    if (key === '__proto__') return UNSURE;
    out[key] = value[key];
  }
  return out;
}

const STATUS_KEYS = ['id', 'name', 'color', 'is_closed_type'];
const NAMED_KEYS = ['id', 'name'];
const USER_KEYS = ['zpuid', 'name', 'email'];

const status = (value: unknown) =>
  looseObject(value, STATUS_KEYS, (key, input) =>
    key === 'id' ? id(input.id) : key === 'is_closed_type' ? flag(input[key]) : text(input[key]),
  );

const named = (value: unknown) =>
  looseObject(value, NAMED_KEYS, (key, input) => (key === 'id' ? id(input.id) : text(input[key])));

const user = (value: unknown) =>
  looseObject(value, USER_KEYS, (key, input) => {
    if (key !== 'zpuid') return text(input[key]);
    const zpuid = input.zpuid;
    return typeof zpuid === 'string' && zpuid.length > 0 ? zpuid : UNSURE;
  });

const nullable = <T>(value: unknown, read: (value: unknown) => Read<T>): Read<T | null> =>
  value === undefined || value === null ? null : read(value);

export function readEntity(item: unknown): Entity | undefined {
  if (!isPlainObject(item)) return undefined;
  const description = text(item.description);
  const fixed = {
    id: id(item.id),
    name: typeof item.name === 'string' ? item.name : UNSURE,
    description: description === null ? '' : description,
    status: status(item.status),
    layout: named(item.layout),
    project: nullable(item.project, named),
    owner: nullable(item.owner, user),
    is_closed: flag(item.is_closed),
    is_external: flag(item.is_external),
    created_time: optionalTime(item.created_time),
    last_updated_time: time(item.last_updated_time),
    trashed_time: optionalTime(item.trashed_time),
  };
  for (const key of FIXED) if (fixed[key] === UNSURE) return undefined;
  const custom: Record<string, unknown> = {};
  for (const key of Object.keys(item)) {
    if (FIXED_SET.has(key)) continue;
    if (key === '__proto__') return undefined;
    custom[key] = item[key];
  }
  return { ...fixed, custom } as Entity;
}

/** The fixed members this reader knows, for the test that keeps it in step with the schema. */
export const READ_ENTITY_FIXED_FIELDS: readonly string[] = FIXED;
