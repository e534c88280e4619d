import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** Compiled validators kept per schema text; a schema version never changes once written. */
const MAX_CACHED_VALIDATORS = 500;

/** JSON Schema draft 2020-12 validation (Ajv's 2020 build with ajv-formats). */
export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  /** The same schema text (many events share one shape) is compiled once: a compile takes ms. */
  private readonly byText = new Map<string, ValidateFunction>();

  constructor() {
    // strict: false because schemas are edited by hand and may carry keywords Ajv does not know.
    // ownProperties: a key such as `constructor` is read only as the data's own, never inherited
    // (without it, `{}` failed a schema with an optional integer `constructor`).
    this.ajv = new Ajv2020({ allErrors: true, strict: false, ownProperties: true });
    addFormats(this.ajv);
  }

  private compile(key: string, schema: object): ValidateFunction {
    let validate = this.cache.get(key);
    if (!validate) {
      const text = JSON.stringify(schema);
      validate = this.byText.get(text) ?? this.ajv.compile(schema);
      remember(this.byText, text, validate);
      remember(this.cache, key, validate);
    }
    return validate;
  }

  /** One line per problem, `path: message`; empty when the value is valid. */
  validate(schema: object, value: unknown, cacheKey = JSON.stringify(schema)): string[] {
    let validate: ValidateFunction;
    try {
      validate = this.compile(cacheKey, schema);
    } catch (error) {
      return [
        `the schema itself is invalid: ${error instanceof Error ? error.message : String(error)}`,
      ];
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => {
      const where = error.instancePath === '' ? '(data)' : error.instancePath;
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})`
          : '';
      return `${where}: ${error.message ?? error.keyword}${extra}`;
    });
  }
}

function remember(cache: Map<string, ValidateFunction>, key: string, validate: ValidateFunction) {
  if (cache.size >= MAX_CACHED_VALIDATORS) cache.delete(cache.keys().next().value as string);
  cache.set(key, validate);
}
