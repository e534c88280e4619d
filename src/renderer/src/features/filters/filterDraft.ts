/**
 * The filter builder's model: criteria being edited and the pattern that combines them, turned
 * into the API's own `filter` value and checked with the same code the mirror and the emulator
 * use (packages/portal-api/src/filter), so what the builder accepts is exactly what runs. Pure.
 */
import {
  checkFilter,
  conditionsFor,
  findCondition,
  formatPattern,
  parseFilter,
  parsePattern,
  type FieldKind,
  type Filter,
  type FilterError,
  type FilterField,
  type PatternNode,
} from '@portaldesk/portal-api/filter';

export interface DraftCriterion {
  field: string;
  condition: string;
  values: string[];
  /**
   * Added by the person and not given a value yet: the builder shows its empty value as what it
   * waits for, not as an error (it is still not applied). Set by newCriterion, cleared by the
   * first change of its values.
   */
  awaitingValue?: boolean;
}

export interface FilterDraft {
  criteria: DraftCriterion[];
  pattern: string;
  /** The person typed the pattern: adding a criterion then appends to it instead of rewriting it. */
  patternEdited: boolean;
}

export const EMPTY_DRAFT: FilterDraft = { criteria: [], pattern: '', patternEdited: false };

/** Every criterion, ANDed: `1 AND 2 AND 3`. */
export function defaultPattern(count: number): string {
  return Array.from({ length: count }, (_, i) => String(i + 1)).join(' AND ');
}

/** The conditions the builder offers for a kind: aliases are left out (they mean the same). */
export function builderConditions(kind: FieldKind) {
  return conditionsFor(kind).filter((condition) => condition.aliasOf === undefined);
}

/** Values sized for the condition: none, one, two, or at least one. */
export function valuesFor(kind: FieldKind, condition: string, values: readonly string[]): string[] {
  const spec = findCondition(kind, condition);
  switch (spec?.values) {
    case 'none':
      return [];
    case 'one':
      return [values[0] ?? spec.choices?.[0] ?? ''];
    case 'two':
      return [values[0] ?? '', values[1] ?? ''];
    default:
      return values.length === 0 ? [''] : [...values];
  }
}

function kindOf(fields: readonly FilterField[], name: string): FieldKind | undefined {
  return fields.find((f) => f.name === name)?.kind;
}

export function newCriterion(field: FilterField, condition?: string): DraftCriterion {
  const name = condition ?? builderConditions(field.kind)[0]?.name ?? 'is';
  const values = valuesFor(field.kind, name, []);
  return {
    field: field.name,
    condition: name,
    values,
    ...(values.includes('') ? { awaitingValue: true } : {}),
  };
}

export function addCriterion(draft: FilterDraft, criterion: DraftCriterion): FilterDraft {
  const criteria = [...draft.criteria, criterion];
  const pattern =
    draft.patternEdited && draft.pattern.trim() !== ''
      ? `(${draft.pattern.trim()}) AND ${criteria.length}`
      : defaultPattern(criteria.length);
  return { ...draft, criteria, pattern };
}

/** The tree without criterion `index` (1-based), later ones renumbered; null when nothing is left. */
function withoutCriterion(node: PatternNode, index: number): PatternNode | null {
  if (node.type === 'criterion') {
    if (node.index === index) return null;
    return node.index > index ? { type: 'criterion', index: node.index - 1 } : node;
  }
  const items = node.items.flatMap((item) => {
    const kept = withoutCriterion(item, index);
    return kept ? [kept] : [];
  });
  if (items.length === 0) return null;
  return items.length === 1 ? (items[0] as PatternNode) : { type: node.type, items };
}

export function removeCriterion(draft: FilterDraft, position: number): FilterDraft {
  const criteria = draft.criteria.filter((_, i) => i !== position);
  if (criteria.length === 0) return EMPTY_DRAFT;
  if (!draft.patternEdited) return { ...draft, criteria, pattern: defaultPattern(criteria.length) };
  const parsed = parsePattern(draft.pattern, draft.criteria.length);
  const tree = parsed.ok ? withoutCriterion(parsed.tree, position + 1) : null;
  // A pattern that does not parse cannot be renumbered: start again from AND.
  return tree
    ? { ...draft, criteria, pattern: formatPattern(tree) }
    : { criteria, pattern: defaultPattern(criteria.length), patternEdited: false };
}

export function updateCriterion(
  draft: FilterDraft,
  position: number,
  change: Partial<DraftCriterion>,
  fields: readonly FilterField[],
): FilterDraft {
  const criteria = draft.criteria.map((criterion, i) => {
    if (i !== position) return criterion;
    if (change.field !== undefined && change.field !== criterion.field) {
      const field = fields.find((f) => f.name === change.field);
      return field ? newCriterion(field) : criterion;
    }
    const next = { ...criterion, ...change };
    if (change.values !== undefined) delete next.awaitingValue;
    const kind = kindOf(fields, next.field);
    if (change.condition !== undefined && kind) {
      next.values = valuesFor(kind, next.condition, criterion.values);
    }
    return next;
  });
  return { ...draft, criteria };
}

export function setPattern(draft: FilterDraft, pattern: string): FilterDraft {
  return { ...draft, pattern, patternEdited: true };
}

/** The API's `filter` value for the draft; undefined when it has no criteria (every record). */
export function draftToFilter(
  draft: FilterDraft,
  fields: readonly FilterField[],
): Filter | undefined {
  if (draft.criteria.length === 0) return undefined;
  return {
    criteria: draft.criteria.map((c) => {
      const spec = findCondition(kindOf(fields, c.field) ?? 'text', c.condition);
      return spec?.values === 'none'
        ? { field_name: c.field, criteria_condition: c.condition }
        : { field_name: c.field, criteria_condition: c.condition, value: [...c.values] };
    }),
    pattern: draft.pattern,
  };
}

export function draftFromFilter(filter: Filter): FilterDraft {
  return {
    criteria: filter.criteria.map((c) => ({
      field: c.field_name,
      condition: c.criteria_condition,
      values: c.value ? [...c.value] : [],
    })),
    pattern: filter.pattern,
    patternEdited: filter.pattern !== defaultPattern(filter.criteria.length),
  };
}

/** Problems of a draft, placed where the builder shows them. */
export interface DraftProblems {
  /** By criterion position (0-based). */
  criteria: Map<number, string[]>;
  pattern: string[];
  /** Problems of the whole filter. */
  other: string[];
  ok: boolean;
}

function place(errors: readonly FilterError[]): DraftProblems {
  const problems: DraftProblems = { criteria: new Map(), pattern: [], other: [], ok: true };
  for (const error of errors) {
    problems.ok = false;
    const criterion = /^criteria\[(\d+)\]/.exec(error.path);
    if (criterion) {
      const index = Number(criterion[1]);
      const rest = error.path.slice(criterion[0].length).replace(/^\./, '');
      const list = problems.criteria.get(index) ?? [];
      list.push(describeAt(rest, error.message));
      problems.criteria.set(index, list);
    } else if (error.path === 'pattern') {
      problems.pattern.push(error.message);
    } else {
      problems.other.push(error.path ? `${error.path}: ${error.message}` : error.message);
    }
  }
  return problems;
}

/** `value[1]` → "Second value: …", so a person knows which box is wrong. */
function describeAt(path: string, message: string): string {
  const value = /^value\[(\d+)\]$/.exec(path);
  if (value) {
    const ordinal = ['First', 'Second'][Number(value[1])] ?? `Value ${Number(value[1]) + 1}`;
    return `${ordinal} value ${message}`;
  }
  if (path === 'value') return `Values: ${message}`;
  if (path === 'criteria_condition') return `Condition ${message}`;
  if (path === 'field_name') return `Field ${message}`;
  return message;
}

export function checkDraft(draft: FilterDraft, fields: readonly FilterField[]): DraftProblems {
  const filter = draftToFilter(draft, fields);
  if (!filter) return place([]);
  const parsed = parseFilter(filter);
  if (!parsed.ok) return place(parsed.errors);
  return place(checkFilter(parsed.filter, fields));
}

/** The exact `filter` query value (JSON text) of a valid draft, or undefined for "no filter". */
export function filterText(draft: FilterDraft, fields: readonly FilterField[]): string | undefined {
  const filter = draftToFilter(draft, fields);
  return filter ? JSON.stringify(filter) : undefined;
}
