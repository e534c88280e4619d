/**
 * A list's filter, in the API's own language (its JSON text), as SQL over the module's records:
 * parsed, checked against the module's fields and compiled with the portal's zone and people, or
 * refused in words (RecordQueryError) with every problem named.
 */
import {
  checkFilter,
  compileFilter,
  FilterCompileError,
  formatFilterErrors,
  parseFilter,
  type FilterContext,
  type FilterError,
} from '@portaldesk/portal-api/filter';
import type { ModuleContext } from './moduleContext';
import { recordFilterSql, type RecordFilterSql } from './recordFilterSql';
import { RecordQueryError } from './recordQueryError';

function refuse(errors: readonly FilterError[]): RecordQueryError {
  const problems = formatFilterErrors(errors);
  return new RecordQueryError(
    `The filter cannot be used on the local copy: ${problems.join('; ')}. The list was left as it was; correct the filter and try again.`,
    problems,
  );
}

function filterContext(context: ModuleContext, now: number): FilterContext {
  return {
    now,
    timeZone: context.timeZone,
    ...(context.weekStartDay === null ? {} : { weekStartDay: context.weekStartDay }),
    users: context.users,
  };
}

/** No filter (or an empty one) is every record: `1`. `now` is the clock's (relative dates). */
export function listFilterSql(
  context: ModuleContext,
  filter: string | undefined,
  now: () => number,
): RecordFilterSql {
  if (filter === undefined || filter.trim() === '') {
    return {
      sql: '1',
      params: [],
      probe: '1',
      edited: { sql: '1', params: [] },
      indexable: [],
      lookup: null,
    };
  }
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw refuse(parsed.errors);
  const problems = checkFilter(parsed.filter, context.setup.fields);
  if (problems.length > 0) throw refuse(problems);
  try {
    const compiled = compileFilter(
      parsed.filter,
      context.setup.fields,
      filterContext(context, now()),
    );
    return recordFilterSql(compiled, context.setup, context.moduleKey);
  } catch (error) {
    if (error instanceof FilterCompileError) throw refuse(error.errors);
    throw error;
  }
}
