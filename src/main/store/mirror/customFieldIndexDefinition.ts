/**
 * The expression index that serves one custom-field expression of one module's lists: a partial
 * index of that module's rows, keyed like the list indexes of 0002_mirror.sql (module_key,
 * list_state, value, id), so a filter on the value is an index range and a sort by it an index
 * walk, both without reading the records' JSON. It also holds status_id: a custom condition
 * together with a status one (the common preset) is then answered from the index alone (at a
 * million records 23 ms instead of 360, which looked up every matching row). Pure.
 *
 * SQLite uses an index on an expression only where the query holds the same expression (its
 * parse tree: spacing, parentheses and the table alias do not matter; the function, the JSON path
 * and the argument order do), so the indexed expression is the query's own text with `r.` taken
 * off: recordFilterSql and recordSortPlan name the expressions, nothing writes them twice.
 *
 * The index is partial (`WHERE +module_key = <k>`: other modules' writes never compute its
 * expression), and its condition is written so that only a statement holding the same literal can
 * meet it. SQLite re-prepares a cached statement after a schema change with the values bound at
 * that moment, and a statement binding `module_key = ?` with k then used a `WHERE module_key = k`
 * index and answered every other module from it: empty lists until a restart. No statement writes
 * `+module_key = ?` (a unary plus on a column is never bound), so only the lists, which write the
 * literal (customFieldIndexScope), can use these indexes. The rule for every partial index:
 * src/main/store/migrations/README.md.
 */
import { createHash } from 'node:crypto';
import { FOLD_SQL_FUNCTION } from '@portaldesk/portal-api/filter/fold';
import { NATURAL_SORT_SQL_FUNCTION } from '@portaldesk/portal-api/domain/naturalOrder';

/** Every index this module defines starts with it; nothing else in the schema does. */
export const CUSTOM_FIELD_INDEX_PREFIX = 'records_cf_';

const FIELD = '[A-Za-z_][A-Za-z0-9_]*';
/** A custom field's member as the lists read it. */
const member = (name: string) => String.raw`json_extract\(r\.custom, '\$\.${FIELD}\.${name}'\)`;
/** A custom field's value as the lists read it: the field, or one member of its object. */
const VALUE = String.raw`json_extract\(r\.custom, '\$\.${FIELD}(?:\.(?:amount|zpuid|name))?'\)`;
/** A list of values (multi-user) as JSON text, whatever its JSON type. */
const LIST = String.raw`r\.custom -> '\$\.${FIELD}'`;
/**
 * A currency's order (currencyOrderTerms): its code, NULL when it has no amount, then its amount;
 * two columns of one index.
 */
const CURRENCY_ORDER =
  String.raw`CASE WHEN ${member('amount')} IS NULL THEN NULL ELSE coalesce\(${member('currency_code')}, ''\) END, ` +
  member('amount');
const CUSTOM_EXPRESSION = new RegExp(
  `^(?:${VALUE}|${LIST}|${FOLD_SQL_FUNCTION}\\(${VALUE}\\)|${NATURAL_SORT_SQL_FUNCTION}\\(${VALUE}\\)|${CURRENCY_ORDER})$`,
);

/**
 * The term that scopes a statement to one module's custom-field indexes (`r` for a row aliased
 * `r`): a statement over `records` may use such an index only if it holds this term, with the
 * module key written in its text.
 */
export function customFieldIndexScope(moduleKey: number, alias: 'r' | '' = ''): string {
  if (!Number.isSafeInteger(moduleKey) || moduleKey < 0) {
    throw new Error(`Not a module key: ${moduleKey}`);
  }
  return `+${alias === '' ? '' : `${alias}.`}module_key = ${moduleKey}`;
}

/**
 * Whether a custom-field index in the schema (its CREATE INDEX text, as sqlite_schema keeps it)
 * has the condition this version writes. Indexes made before it (`WHERE module_key = k`) could
 * answer a cached statement for another module, so they are dropped when the engine starts.
 */
export function isCurrentCustomFieldIndex(indexName: string, sql: string | null): boolean {
  const moduleKey = customFieldIndexModule(indexName);
  return (
    moduleKey !== undefined &&
    sql !== null &&
    sql.endsWith(` WHERE ${customFieldIndexScope(moduleKey)}`)
  );
}

export interface CustomFieldIndexDefinition {
  /** The index's name in the schema: prefix, module key, field, and a hash of the expression. */
  name: string;
  moduleKey: number;
  /** The indexed expression, as the query writes it minus the `r.` alias. */
  expression: string;
  /** CREATE INDEX IF NOT EXISTS ... */
  sql: string;
}

/** Whether `expression` is one the lists write for a custom field (and so may be indexed). */
export function isCustomFieldExpression(expression: string): boolean {
  return CUSTOM_EXPRESSION.test(expression);
}

/** The module key an index of this module belongs to, or undefined for any other index. */
export function customFieldIndexModule(indexName: string): number | undefined {
  const match = /^records_cf_(\d+)_/.exec(indexName);
  return match ? Number(match[1]) : undefined;
}

/**
 * The index for `queryExpression` (as recordFilterSql / recordSortPlan write it, over a row
 * aliased `r`; a currency's order is two expressions, comma separated, two columns of the index)
 * on module `moduleKey`. Throws for anything that is not a custom field's value:
 * only those reach index DDL, so no other text can.
 */
export function customFieldIndexDefinition(
  moduleKey: number,
  queryExpression: string,
): CustomFieldIndexDefinition {
  if (!Number.isSafeInteger(moduleKey) || moduleKey < 0) {
    throw new Error(`Not a module key: ${moduleKey}`);
  }
  if (!isCustomFieldExpression(queryExpression)) {
    throw new Error(`Not a custom field expression: ${queryExpression}`);
  }
  const expression = queryExpression.replace(/\br\.custom\b/g, 'custom');
  const field = /'\$\.([A-Za-z_][A-Za-z0-9_]*)/.exec(expression)?.[1] ?? 'field';
  const scope = customFieldIndexScope(moduleKey);
  // The condition is hashed too: an index of an earlier definition never shares a name with one
  // of this definition.
  const hash = createHash('sha256')
    .update(`${expression}\u0000${scope}`)
    .digest('hex')
    .slice(0, 10);
  const name = `${CUSTOM_FIELD_INDEX_PREFIX}${moduleKey}_${field.toLowerCase()}_${hash}`;
  const sql =
    `CREATE INDEX IF NOT EXISTS ${name} ON records (module_key, list_state, ${expression}, id, status_id) ` +
    `WHERE ${scope}`;
  return { name, moduleKey, expression, sql };
}
