/**
 * A configuration file's text read into a document, or refused in words: JSON that does not parse
 * says where; a document that does not meet the schema lists its first problems with the place of
 * each ("modules[0].fields[3].label: at most 250 characters"). Nothing is planned from a file
 * that fails.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ErrorObject } from 'ajv';
import { ConfigRefused } from '../configureService';
import {
  CONFIGURATION_FORMAT,
  CONFIGURATION_SCHEMA,
  CONFIGURATION_VERSION,
  type ConfigurationDocument,
} from './configurationDocument';

/** More than this many problems at once helps nobody: the first ones say what kind of file it is. */
const PROBLEMS_SHOWN = 5;

let compiled: ReturnType<Ajv2020['compile']> | null = null;

function validator() {
  if (!compiled) {
    // ownProperties: a `__proto__` or `constructor` key is judged as the file's own, never inherited.
    const ajv = new Ajv2020({ allErrors: true, strict: true, ownProperties: true });
    addFormats(ajv);
    compiled = ajv.compile(CONFIGURATION_SCHEMA);
  }
  return compiled;
}

/** `/modules/0/fields/3/label` → `modules[0].fields[3].label`. */
function place(pointer: string): string {
  if (pointer === '') return 'The file';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
      '',
    );
}

function inWords(error: ErrorObject): string {
  const where = place(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${where}: ${String(params.missingProperty)} is missing.`;
    case 'additionalProperties':
      return `${where}: ${String(params.additionalProperty)} is not part of a configuration file.`;
    case 'maxLength':
      return `${where}: at most ${String(params.limit)} characters.`;
    case 'minLength':
      return `${where}: must not be empty.`;
    case 'maxItems':
      return `${where}: at most ${String(params.limit)} entries.`;
    case 'minItems':
      return `${where}: at least ${String(params.limit)} entry.`;
    case 'enum':
      return `${where}: one of ${(params.allowedValues as unknown[]).map(String).join(', ')}.`;
    case 'const':
      return `${where}: must be ${JSON.stringify(params.allowedValue)}.`;
    default:
      return `${where}: ${error.message ?? error.keyword}.`;
  }
}

/** `anyOf` failures repeat each branch's complaint; the branch words say more than "must match". */
function problemsOf(errors: readonly ErrorObject[]): string[] {
  const specific = errors.filter((error) => error.keyword !== 'anyOf');
  const lines = (specific.length > 0 ? specific : errors).map(inWords);
  return [...new Set(lines)];
}

export function readConfigurationDocument(text: string, fileName: string): ConfigurationDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigRefused(
      `${fileName} is not JSON (${error instanceof Error ? error.message : String(error)}). Nothing was planned.`,
    );
  }
  const head = value as { format?: unknown; version?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== CONFIGURATION_FORMAT) {
    throw new ConfigRefused(
      `${fileName} is not a PortalDesk configuration file (its "format" is not "${CONFIGURATION_FORMAT}"). Export one from the Configure area first. Nothing was planned.`,
    );
  }
  if (head.version !== CONFIGURATION_VERSION) {
    throw new ConfigRefused(
      `${fileName} is a configuration file of version ${JSON.stringify(head.version)}; this PortalDesk reads version ${CONFIGURATION_VERSION}. Nothing was planned.`,
    );
  }
  const validate = validator();
  if (!validate(value)) {
    const problems = problemsOf(validate.errors ?? []);
    const shown = problems.slice(0, PROBLEMS_SHOWN).join(' ');
    const more =
      problems.length > PROBLEMS_SHOWN ? ` (and ${problems.length - PROBLEMS_SHOWN} more)` : '';
    throw new ConfigRefused(
      `${fileName} does not fit the configuration schema: ${shown}${more} Nothing was planned.`,
    );
  }
  return value as ConfigurationDocument;
}
