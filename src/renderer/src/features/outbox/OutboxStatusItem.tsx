/** The status bar's piece of the outbox: what waits to be sent, refusals and conflicts. */
import { outboxSummary } from './outboxFormat';
import { useOutbox } from './OutboxContext';

export function OutboxStatusItem({ onOpen }: { onOpen(): void }) {
  const status = useOutbox((s) => s.status);
  if (!status) return null;
  const summary = outboxSummary(status.counts);
  const attention = status.counts.failed + status.counts.conflict > 0;
  return (
    <button
      type="button"
      className={`status-bar__link${attention ? ' text-danger' : ''}`}
      data-testid="outbox-count"
      onClick={onOpen}
      title="Open the Outbox"
    >
      {status.workOffline ? 'Working offline' : ''}
      {status.workOffline && summary ? ' · ' : ''}
      {summary === '' ? (status.workOffline ? '' : 'Outbox empty') : `Outbox: ${summary}`}
    </button>
  );
}
