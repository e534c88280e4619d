import {
  COMPARATORS,
  MAX_TARGETS_PER_RULE,
  RuleStatus,
  findComparator,
  isFilterGroup,
  type FilterCondition,
  type RuleView,
  type SchemaPathView,
  type ValueType,
} from '../../../../shared/ipc/areas/router';
import { DraftTable } from './DraftTable';
import { EventPicker } from './EventPicker';
import { StatusSelect } from './StatusSelect';
import { useRouter } from './useRouter';

interface Draft {
  id?: string;
  name: string;
  status: RuleView['status'];
  retryCount: number;
  eventConfigIds: string[];
  targetIds: string[];
  operator: 'AND' | 'OR';
  conditions: FilterCondition[];
}

const emptyDraft = (): Draft => ({
  name: '',
  status: 'active',
  retryCount: 3,
  eventConfigIds: [],
  targetIds: [],
  operator: 'AND',
  conditions: [],
});

function toDraft(rule: RuleView): Draft {
  const flat =
    rule.filter?.conditions.filter((node): node is FilterCondition => !isFilterGroup(node)) ?? [];
  return { ...rule, operator: rule.filter?.operator ?? 'AND', conditions: flat };
}

/** Text typed into a value box as the type's operand. */
function operand(type: ValueType, text: string): string | number | boolean {
  if (type === 'number') return Number(text);
  if (type === 'boolean') return text === 'true';
  return text;
}

function ConditionRow({
  condition,
  paths,
  onChange,
  onRemove,
}: {
  condition: FilterCondition;
  paths: SchemaPathView[];
  onChange: (next: FilterCondition) => void;
  onRemove: () => void;
}) {
  const spec = findComparator(condition.type, condition.comparator);
  const values =
    condition.value === undefined
      ? []
      : Array.isArray(condition.value)
        ? condition.value
        : [condition.value];
  const setValue = (index: number, text: string) => {
    const next = [...values];
    next[index] = operand(condition.type, text);
    onChange({
      ...condition,
      value: spec?.operands === 2 ? ([next[0] ?? '', next[1] ?? ''] as [string, string]) : next[0],
    });
  };
  return (
    <div className="router-condition" role="group" aria-label="Condition">
      <select
        aria-label="Path"
        value={condition.path}
        onChange={(e) => {
          const path = paths.find((p) => p.path === e.target.value);
          const type = path?.type ?? condition.type;
          onChange({
            path: e.target.value,
            type,
            comparator: COMPARATORS[type][0].id,
            value: type === 'boolean' ? true : undefined,
          } as FilterCondition);
        }}
      >
        {!paths.some((p) => p.path === condition.path) && (
          <option value={condition.path}>{condition.path}</option>
        )}
        {paths
          .filter((p) => p.type)
          .map((p) => (
            <option key={p.path} value={p.path}>
              {p.path} ({p.type})
            </option>
          ))}
      </select>
      <select
        aria-label="Comparator"
        value={condition.comparator}
        onChange={(e) => {
          const next = findComparator(condition.type, e.target.value);
          onChange({
            ...condition,
            comparator: e.target.value,
            value:
              next?.operands === 0
                ? undefined
                : next?.operands === 2
                  ? ['', '']
                  : condition.type === 'boolean'
                    ? true
                    : '',
          } as FilterCondition);
        }}
      >
        {COMPARATORS[condition.type].map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </select>
      {spec &&
        Array.from({ length: spec.operands }, (_, index) =>
          condition.type === 'boolean' ? (
            <select
              key={index}
              aria-label="Value"
              value={String(values[index] ?? true)}
              onChange={(e) => setValue(index, e.target.value)}
            >
              <option>true</option>
              <option>false</option>
            </select>
          ) : (
            <input
              key={index}
              aria-label={index === 0 ? 'Value' : 'Second value'}
              value={String(values[index] ?? '')}
              placeholder={condition.type === 'datetime' ? 'YYYY-MM-DD or ISO date-time' : ''}
              type={condition.type === 'number' ? 'number' : 'text'}
              onChange={(e) => setValue(index, e.target.value)}
            />
          ),
        )}
      <button type="button" aria-label="Remove condition" onClick={onRemove}>
        ×
      </button>
    </div>
  );
}

export function RulesPanel() {
  const overview = useRouter((state) => state.overview);
  const run = useRouter((state) => state.run);
  if (!overview) return null;
  // By id: a rule may list hundreds of events (a portal's modules × five scopes).
  const events = new Map(overview.publishers.flatMap((p) => p.events.map((e) => [e.id, e])));
  const toggle = (list: string[], id: string) =>
    list.includes(id) ? list.filter((x) => x !== id) : [...list, id];

  const save = (draft: Draft) =>
    run((api) =>
      api.router.saveRule({
        ...(draft.id ? { id: draft.id } : {}),
        name: draft.name,
        status: draft.status,
        retryCount: draft.retryCount,
        eventConfigIds: draft.eventConfigIds,
        targetIds: draft.targetIds,
        filter:
          draft.conditions.length > 0
            ? { operator: draft.operator, conditions: draft.conditions }
            : null,
      }),
    );

  return (
    <DraftTable
      item="Rule"
      columns={['Status', 'Events', 'Targets', 'Retries']}
      empty="No rules yet: New rule picks events, their conditions and the targets to deliver to."
      rows={overview.rules}
      cells={(rule) => (
        <>
          <td>
            <StatusSelect
              name={rule.name}
              value={rule.status}
              statuses={RuleStatus.options}
              onChange={(status) =>
                void run((api) => api.router.setRuleStatus({ id: rule.id, status }))
              }
            />
          </td>
          <td>{rule.eventConfigIds.map((id) => events.get(id)?.apiName ?? id).join(', ')}</td>
          <td>
            {rule.targetIds
              .map((id) => overview.targets.find((t) => t.id === id)?.name ?? id)
              .join(', ')}
          </td>
          <td>{rule.retryCount}</td>
        </>
      )}
      newDraft={emptyDraft}
      toDraft={toDraft}
      onSave={save}
      form={(draft, setDraft) => {
        const paths = [
          ...new Map(
            draft.eventConfigIds
              .flatMap((id) => events.get(id)?.paths ?? [])
              .map((p) => [p.path, p]),
          ).values(),
        ];
        return (
          <>
            <label>
              Retry count{' '}
              <input
                type="number"
                min={0}
                max={10}
                value={draft.retryCount}
                onChange={(e) => setDraft({ ...draft, retryCount: Number(e.target.value) })}
              />
            </label>
            <EventPicker
              publishers={overview.publishers}
              selectedIds={draft.eventConfigIds}
              onChange={(eventConfigIds) => setDraft({ ...draft, eventConfigIds })}
            />
            <fieldset>
              <legend>Targets (at most {MAX_TARGETS_PER_RULE})</legend>
              {overview.targets
                .filter((t) => t.status !== 'deleted')
                .map((t) => (
                  <label key={t.id}>
                    <input
                      type="checkbox"
                      checked={draft.targetIds.includes(t.id)}
                      onChange={() =>
                        setDraft({ ...draft, targetIds: toggle(draft.targetIds, t.id) })
                      }
                    />{' '}
                    {t.name}
                  </label>
                ))}
            </fieldset>
            <fieldset>
              <legend>
                {draft.conditions.length === 0
                  ? 'Conditions (none: deliver all events)'
                  : `Conditions (${draft.conditions.length}: deliver only the events that match)`}
              </legend>
              <select
                aria-label="Combine conditions"
                value={draft.operator}
                onChange={(e) => setDraft({ ...draft, operator: e.target.value as 'AND' | 'OR' })}
              >
                <option value="AND">all must match (AND)</option>
                <option value="OR">any may match (OR)</option>
              </select>
              {draft.conditions.map((condition, index) => (
                <ConditionRow
                  key={index}
                  condition={condition}
                  paths={paths}
                  onChange={(next) =>
                    setDraft({
                      ...draft,
                      conditions: draft.conditions.map((c, i) => (i === index ? next : c)),
                    })
                  }
                  onRemove={() =>
                    setDraft({
                      ...draft,
                      conditions: draft.conditions.filter((_, i) => i !== index),
                    })
                  }
                />
              ))}
              <button
                type="button"
                disabled={paths.every((p) => !p.type)}
                onClick={() => {
                  const first = paths.find((p) => p.type);
                  if (!first?.type) return;
                  setDraft({
                    ...draft,
                    conditions: [
                      ...draft.conditions,
                      {
                        path: first.path,
                        type: first.type,
                        comparator: COMPARATORS[first.type][0].id,
                        value: first.type === 'boolean' ? true : first.type === 'number' ? 0 : '',
                      } as FilterCondition,
                    ],
                  });
                }}
              >
                Add condition
              </button>
            </fieldset>
          </>
        );
      }}
    />
  );
}
