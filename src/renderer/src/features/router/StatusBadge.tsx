import type { ExecutionStatus, OverallStatus } from '../../../../shared/ipc/areas/router';
import { statusTone } from './routerFormat';

export function StatusBadge({ status }: { status: OverallStatus | ExecutionStatus }) {
  return <span className={`router-badge router-badge--${statusTone(status)}`}>{status}</span>;
}
