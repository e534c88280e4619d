/**
 * How the Configure view words a module: its scope, records, queued changes, and why an action
 * cannot apply. Pure.
 */
import type { ConfigModule, PendingConfigChange } from '../../../../shared/ipc/areas/configure';

export const PENDING_STATE: Record<PendingConfigChange['state'], string> = {
  pending: 'waiting to be sent',
  sending: 'being sent',
  failed: 'refused by the service',
  conflict: 'in conflict with a change on the service',
};

export function scopeText(module: ConfigModule): string {
  if (module.isGlobal) return 'Global';
  if (module.isAllProjects) return 'Per project · all projects';
  const count = module.projects.filter((project) => project.selected).length;
  return `Per project · ${count} project${count === 1 ? '' : 's'}`;
}

export function recordsText(count: number): string {
  return `${count.toLocaleString()} record${count === 1 ? '' : 's'}`;
}

export type ModuleAction = 'edit' | 'deactivate' | 'trash' | 'recover' | 'delete';

/** Why an action cannot apply to the module now, in words; null when it can. */
export function blockedReason(module: ConfigModule, action: ModuleAction): string | null {
  if (module.pending.some((change) => change.action === 'delete')) {
    return 'Its permanent delete is queued; discard it in the Outbox to keep the module.';
  }
  // One sentence for both, so a row says it once.
  if (module.builtIn && (action === 'deactivate' || action === 'trash')) {
    return "One of the product's own modules: it cannot be renamed, deactivated or moved to the bin.";
  }
  return null;
}
