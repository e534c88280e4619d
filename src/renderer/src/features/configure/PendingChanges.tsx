import type { PendingConfigChange } from '../../../../shared/ipc/areas/configure';
import { PENDING_STATE } from './moduleFormat';

/**
 * What is queued for one thing of the configuration (a module, layout, field or option): each
 * change's summary, its state in words, and the service's refusal when there is one.
 */
export function PendingChanges({
  name,
  pending,
}: {
  /** What the changes are of, for the list's label. */
  name: string;
  pending: readonly Pick<PendingConfigChange, 'opId' | 'summary' | 'state' | 'error'>[];
}) {
  if (pending.length === 0) return null;
  return (
    <ul className="configure-pending" aria-label={`Queued changes of ${name}`}>
      {pending.map((change) => (
        <li key={change.opId} className={`is-${change.state}`} data-state={change.state}>
          <span className="configure-pending__summary">{change.summary}</span>{' '}
          <span className="configure-pending__state">{PENDING_STATE[change.state]}</span>
          {change.error && <span className="configure-pending__error">: {change.error}</span>}
        </li>
      ))}
    </ul>
  );
}
