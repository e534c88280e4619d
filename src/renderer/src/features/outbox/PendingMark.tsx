/**
 * The dot beside a value with a change not yet on the service; its tooltip says when the change
 * was queued, what the service had, and whether it failed or conflicts. For table cells and the
 * records panel: `<PendingMark pending={form.pending[key]} />` (renders nothing without one).
 */
import type { PendingValue } from '../../../../shared/ipc/areas/outbox';
import { pendingTooltip } from './outboxFormat';

export function PendingMark({
  pending,
  type = 'single_line',
}: {
  pending: PendingValue | undefined;
  type?: string;
}) {
  if (!pending) return null;
  const tooltip = pendingTooltip(pending, type);
  return (
    <span
      className={`pending-mark is-${pending.state}`}
      title={tooltip}
      aria-label={tooltip}
      role="img"
      data-testid="pending-mark"
    />
  );
}
