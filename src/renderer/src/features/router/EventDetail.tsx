import {
  findComparator,
  isFilterGroup,
  type ConditionExplanation,
  type GroupExplanation,
} from '../../../../shared/ipc/areas/router';
import { formatTime } from './routerFormat';
import { StatusBadge } from './StatusBadge';
import { useRouter } from './useRouter';

function Explanation({ group }: { group: GroupExplanation }) {
  return (
    <ul className="router-explain">
      <li className="muted">{group.operator === 'AND' ? 'all of' : 'any of'}:</li>
      {group.conditions.map((node, index) =>
        isFilterGroup(node as GroupExplanation) ? (
          <li key={index}>
            <Explanation group={node as GroupExplanation} />
          </li>
        ) : (
          <ConditionLine key={index} condition={node as ConditionExplanation} />
        ),
      )}
    </ul>
  );
}

function ConditionLine({ condition }: { condition: ConditionExplanation }) {
  return (
    <li className={condition.matched ? 'router-explain__hit' : 'router-explain__miss'}>
      {condition.matched ? '✓' : '✗'} <span className="mono">{condition.path}</span>{' '}
      {findComparator(condition.type, condition.comparator)?.label ?? condition.comparator}{' '}
      {condition.expected !== null && (
        <span className="mono">{JSON.stringify(condition.expected)}</span>
      )}{' '}
      — was <span className="mono">{JSON.stringify(condition.actual)}</span>
      {condition.note && <span className="muted"> ({condition.note})</span>}
    </li>
  );
}

/** One event: overall status, executions with every attempt's request and response, and why. */
export function EventDetail() {
  const detail = useRouter((state) => state.detail);
  const overview = useRouter((state) => state.overview);
  const run = useRouter((state) => state.run);
  const select = useRouter((state) => state.select);
  if (!detail)
    return <aside className="router-detail muted">Select an event to see its deliveries.</aside>;
  const ruleName = (id: string) => overview?.rules.find((r) => r.id === id)?.name ?? id;
  const targetName = (id: string) => overview?.targets.find((t) => t.id === id)?.name ?? id;

  return (
    <aside className="router-detail" aria-label="Event detail" data-testid="router-event-detail">
      <header className="router-detail__head">
        <h3>
          {detail.apiName} <StatusBadge status={detail.status} />
        </h3>
        <button
          type="button"
          onClick={() =>
            void run((api) => api.router.redeliver({ id: detail.id })).then(
              (result) => result && select(result.id),
            )
          }
        >
          Redeliver
        </button>
      </header>
      <dl className="facts">
        <dt>Event id</dt>
        <dd className="mono">{detail.id}</dd>
        <dt>Time</dt>
        <dd>{formatTime(detail.timeMs)}</dd>
        <dt>Schema version</dt>
        <dd>{detail.version ?? 'none yet'}</dd>
        {detail.redeliveryOf && (
          <>
            <dt>Redelivery of</dt>
            <dd className="mono">{detail.redeliveryOf}</dd>
          </>
        )}
      </dl>
      {detail.schemaErrors.length > 0 && (
        <p className="error">Does not match its schema: {detail.schemaErrors.join('; ')}</p>
      )}
      <details>
        <summary>Data</summary>
        <pre className="router-pre">{JSON.stringify(detail.data, null, 2)}</pre>
      </details>
      <h4>Executions</h4>
      {detail.executions.length === 0 && (
        <p className="muted">None: no rule delivered this event.</p>
      )}
      {detail.executions.map((execution) => (
        <section key={execution.id} className="router-execution">
          <p>
            <StatusBadge status={execution.status} /> {ruleName(execution.ruleId)} →{' '}
            {targetName(execution.targetId)}
            {execution.nextAttemptAt !== null && (
              <span className="muted"> · next attempt {formatTime(execution.nextAttemptAt)}</span>
            )}
          </p>
          {execution.note && <p className="muted">{execution.note}</p>}
          {execution.attempts.map((attempt) => (
            <details key={attempt.attempt}>
              <summary>
                Attempt {attempt.attempt} at {formatTime(attempt.startedAt)}:{' '}
                {attempt.response
                  ? `HTTP ${attempt.response.status}`
                  : (attempt.error ?? attempt.outcome)}
              </summary>
              <pre className="router-pre">
                {attempt.request.method} {attempt.request.url}
                {'\n'}
                {Object.entries(attempt.request.headers).map(([k, v]) => `${k}: ${v}\n`)}
                {'\n'}
                {attempt.request.body}
              </pre>
              {attempt.response && (
                <pre className="router-pre">
                  HTTP {attempt.response.status}
                  {'\n'}
                  {Object.entries(attempt.response.headers).map(([k, v]) => `${k}: ${v}\n`)}
                  {'\n'}
                  {attempt.response.body}
                </pre>
              )}
            </details>
          ))}
        </section>
      ))}
      <h4>Explanation</h4>
      {detail.explanation.length === 0 && (
        <p className="muted">No rule lists this event (or its publisher is inactive).</p>
      )}
      {detail.explanation.map((rule) => (
        <section key={rule.ruleId} className="router-execution">
          <p>
            <strong>{rule.ruleName}</strong> ({rule.ruleStatus}):{' '}
            {rule.matched ? 'matched' : 'did not match'}
            {rule.deliverAll && ' — delivers all events'}
            {rule.changedSince && (
              <span className="muted">
                {' '}
                — changed since this event; shown with its current conditions
              </span>
            )}
          </p>
          {rule.filter && <Explanation group={rule.filter} />}
        </section>
      ))}
    </aside>
  );
}
