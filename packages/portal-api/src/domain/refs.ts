/**
 * The small shapes every API resource is built from: ids, references to related objects
 * ("Related data is grouped in objects", spec "Common conventions"), users and ISO 8601 times.
 * Objects are loose: fields the service adds later are kept, never a reason to reject an item.
 */
import { z } from 'zod';
import { canonicalInstant } from './instant';

/**
 * An id. The spec's ids are "long" numbers; the service (and the emulator) render most as strings
 * of digits, portal details and the owner as integers. Kept as a string of digits either way, so
 * ids beyond 2^53 stay exact wherever the server sends them as strings.
 */
export const Id = z
  .union([z.string().regex(/^\d{1,20}$/, 'an id of digits'), z.number().int().nonnegative()])
  .transform(String);
export type Id = z.output<typeof Id>;

/** A user id (ZPUID): digits in practice, but only its being non-empty matters to the app. */
export const Zpuid = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);

/** A text the server may omit or send as null; the app sees `null` for both. */
export const OptionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/** A flag the server may omit; absent or null reads as false. */
export const OptionalFlag = z
  .boolean()
  .nullish()
  .transform((value) => value ?? false);

/**
 * "date-time ISO 8601 such as YYYY-MM-DDTHH:mm:ss.SSSZ" (spec "Common conventions"): any offset
 * or precision is accepted and read as that instant in the example's shape (instant.ts: the
 * mirror compares times as text).
 */
export const IsoDateTime = z.iso.datetime({ offset: true }).transform(canonicalInstant);

export const OptionalDateTime = IsoDateTime.nullish().transform((value) => value ?? null);

/** "date only YYYY-MM-DD". */
export const IsoDate = z.iso.date();

/** `{id}`: how a related object is referenced in bodies and replies. */
export const IdRef = z.looseObject({ id: Id });
export type IdRef = z.output<typeof IdRef>;

/** `{id, name}`: a layout or project as a record shows it. */
export const NamedRef = z.looseObject({ id: Id, name: OptionalText });
export type NamedRef = z.output<typeof NamedRef>;

/** "assignee {zpuid,name,email}". */
export const UserRef = z.looseObject({ zpuid: Zpuid, name: OptionalText, email: OptionalText });
export type UserRef = z.output<typeof UserRef>;

/** "status {id,name,color,is_closed_type}". */
export const StatusRef = z.looseObject({
  id: Id,
  name: OptionalText,
  color: OptionalText,
  is_closed_type: OptionalFlag,
});
export type StatusRef = z.output<typeof StatusRef>;

/** Any JSON value: what a custom field holds before its field type is known. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(JsonValue),
    z.record(z.string(), JsonValue),
  ]),
);
