/**
 * A contract schema's complaints said in words a person reads (pure): "Name: at most 200
 * characters (214 given)." rather than "name: Too big: expected string to have <=200 characters".
 * The engine's dispatcher says them when an argument does not fit, and a form says them before it
 * sends, both from the same schema, so a limit is written once.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** Ours: unexpected keys a complaint names before it says how many more there are. */
const MAX_KEYS_NAMED = 5;

/** `filter.conditions.0.value` → "Filter, condition 1, value". */
export function placeInWords(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'The request';
  const words: string[] = [];
  for (const part of path) {
    if (typeof part === 'number') {
      const owner = words.pop() ?? 'Item';
      // "conditions" + 0 → "condition 1": the singular of a plain English plural.
      const singular = owner.endsWith('ies')
        ? `${owner.slice(0, -3)}y`
        : owner.endsWith('s')
          ? owner.slice(0, -1)
          : owner;
      words.push(`${singular} ${part + 1}`);
      continue;
    }
    const text = String(part)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/_/g, ' ')
      .toLowerCase();
    words.push(text);
  }
  const joined = words.join(', ');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

/** The value at `path` in `input`, or undefined. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

const lengthOf = (value: unknown) =>
  typeof value === 'string' ? [...value].length : Array.isArray(value) ? value.length : undefined;

function sizeWords(origin: string, bound: number | bigint, given: unknown, most: boolean): string {
  const limit = String(bound);
  const count = lengthOf(given);
  const what =
    origin === 'string'
      ? `${Number(bound) === 1 ? 'character' : 'characters'}`
      : origin === 'array' || origin === 'set'
        ? `${Number(bound) === 1 ? 'item' : 'items'}`
        : '';
  if (origin === 'string' && !most && Number(bound) === 1) return 'required';
  const base = `${most ? 'at most' : 'at least'} ${limit}${what ? ` ${what}` : ''}`;
  if (count !== undefined) return `${base} (${count} given)`;
  if (typeof given === 'number') return `${base} (${given} given)`;
  return base;
}

/**
 * A value that fits none of a union's shapes: the complaint of the shape it came nearest to (the
 * fewest complaints), at its full place, says more than "Invalid input".
 */
function nearestBranch(issue: Issue): Issue | null {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return null;
  const branch = [...issue.errors].sort((a, b) => a.length - b.length)[0]!;
  const first = branch[0];
  if (!first) return null;
  return { ...first, path: [...issue.path, ...first.path] } as Issue;
}

/** What a type is called in a sentence ("must be a list"). */
const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/** One complaint in words: "<place>: <what is wrong>." */
export function issueInWords(issue: Issue, input: unknown): string {
  const nearest = nearestBranch(issue);
  if (nearest) return issueInWords(nearest, input);
  const place = placeInWords(issue.path);
  const given = valueAt(input, issue.path);
  let words: string;
  switch (issue.code) {
    case 'too_big':
      words = sizeWords(issue.origin, issue.maximum, given, true);
      break;
    case 'too_small':
      words = sizeWords(issue.origin, issue.minimum, given, false);
      break;
    case 'invalid_type':
      words =
        given === undefined
          ? 'required'
          : issue.expected === 'number' && typeof given === 'number'
            ? 'a number is required'
            : issue.expected === 'undefined'
              ? 'must be left out'
              : `must be ${EXPECTED[issue.expected] ?? `a ${issue.expected}`}`;
      break;
    case 'invalid_value':
      words = `one of ${issue.values.map((value) => String(value)).join(', ')}`;
      break;
    case 'unrecognized_keys': {
      // A few named: an argument can hold tens of thousands of keys, all in this one complaint.
      const named = issue.keys.slice(0, MAX_KEYS_NAMED).map((key) => key.slice(0, 100));
      const more = issue.keys.length - named.length;
      const list = more > 0 ? `${named.join(', ')} and ${more} more keys` : named.join(', ');
      words = `${list} ${issue.keys.length === 1 ? 'is' : 'are'} not expected here`;
      break;
    }
    case 'invalid_format':
      // A schema's own message ("a portal id (digits)") says what is expected.
      words = /^Invalid/.test(issue.message)
        ? `not in the expected form`
        : `must be ${issue.message}`;
      break;
    case 'not_multiple_of':
      words = `must be a multiple of ${String(issue.divisor)}`;
      break;
    default:
      words = issue.message;
  }
  return `${place}: ${words}.`;
}

/** Every complaint of a failed parse in words, once each; `read` bounds how many complaints are read, first first. */
export function issuesInWords(error: z.ZodError, input: unknown, read = Infinity): string[] {
  const issues = read < error.issues.length ? error.issues.slice(0, read) : error.issues;
  return [...new Set(issues.map((issue) => issueInWords(issue, input)))];
}

/**
 * Every complaint in words, grouped by the argument key it is about (its path's first key; '' for
 * the argument as a whole), so a form puts each beside its control.
 */
export function issuesByField(error: z.ZodError, input: unknown): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  for (const issue of error.issues) {
    const first = issue.path[0];
    const field = typeof first === 'string' ? first : '';
    const words = issueInWords(issue, input);
    const list = byField.get(field) ?? [];
    if (!list.includes(words)) list.push(words);
    byField.set(field, list);
  }
  return byField;
}
