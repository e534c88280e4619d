import { fullFormats } from 'ajv-formats/dist/formats';
import type { StringFormat } from './inferredSchema';

/**
 * Ours: longer text is prose, not an address, a date or an id, and is not checked at all, which
 * also bounds what each string costs the inference.
 */
const MAX_FORMAT_TEXT_LENGTH = 2_048;

type Check = (text: string) => boolean;

/** ajv-formats' own checks (full mode, as SchemaValidator uses), so a format inferred from a sample is one the sample passes. */
function check(
  name: 'date' | 'time' | 'date-time' | 'uri' | 'email' | 'ipv4' | 'ipv6' | 'uuid',
): Check {
  const format: unknown = fullFormats[name];
  const validate =
    format !== null && typeof format === 'object' && 'validate' in format
      ? (format as { validate: unknown }).validate
      : format;
  if (validate instanceof RegExp) return (text) => validate.test(text);
  if (typeof validate === 'function') return (text) => (validate as Check)(text);
  throw new Error(`ajv-formats has no check for ${name}`);
}

/**
 * In order: the first that fits names the string's format. The cheap `looks` test keeps ordinary
 * text away from the full checks, and keeps formats to what a string plainly is: a URI needs
 * `scheme://`, so `note: call back` is text, not a URI. Host names are not inferred: `report.pdf`
 * looks like one, and a later `report 2.pdf` would then fail validation.
 */
const FORMATS: { looks: RegExp; fits: Check; format: StringFormat }[] = [
  {
    looks: /^\d{4}-\d\d-\d\d[Tt ]\d\d:/,
    fits: check('date-time'),
    format: { name: 'datetime', parts: 'datetime' },
  },
  { looks: /^\d{4}-\d\d-\d\d$/, fits: check('date'), format: { name: 'datetime', parts: 'date' } },
  { looks: /^\d\d:\d\d:\d\d/, fits: check('time'), format: { name: 'datetime', parts: 'time' } },
  { looks: /^[0-9a-fA-F]{8}-/, fits: check('uuid'), format: { name: 'uuid' } },
  { looks: /^[^@\s]+@[^@\s]+$/, fits: check('email'), format: { name: 'email' } },
  { looks: /^\d{1,3}(\.\d{1,3}){3}$/, fits: check('ipv4'), format: { name: 'ip', variant: 'v4' } },
  {
    looks: /^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$/,
    fits: check('ipv6'),
    format: { name: 'ip', variant: 'v6' },
  },
  { looks: /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+$/, fits: check('uri'), format: { name: 'uri' } },
];

/** The format a sample's string plainly has, or undefined. */
export function stringFormat(text: string): StringFormat | undefined {
  if (text.length > MAX_FORMAT_TEXT_LENGTH) return undefined;
  for (const { looks, fits, format } of FORMATS) {
    if (looks.test(text) && fits(text)) return format;
  }
  return undefined;
}

export function sameFormat(a: StringFormat, b: StringFormat): boolean {
  return a.name === b.name && a.parts === b.parts && a.variant === b.variant;
}

/** The JSON Schema `format` keyword of a stored format, if it has one. */
export function jsonSchemaFormat(format: StringFormat): string | undefined {
  switch (format.name) {
    case 'datetime':
      return format.parts === 'datetime'
        ? 'date-time'
        : format.parts === 'date' || format.parts === 'time'
          ? format.parts
          : undefined;
    case 'ip':
      return format.variant === 'v4' ? 'ipv4' : 'ipv6';
    case 'hostname':
    case 'uri':
    case 'email':
    case 'uuid':
      return format.name;
    default:
      return undefined;
  }
}
