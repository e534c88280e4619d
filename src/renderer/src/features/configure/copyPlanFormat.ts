/** How a copy plan reads (pure): its items by module, its counts and its calls, in words. */
import type { CopyPlan, PlanItem, PlanItemAction } from '../../../../shared/ipc/areas/configCopy';

export const ACTION_WORD: Record<PlanItemAction, string> = {
  create: 'Create',
  change: 'Change',
  alone: 'The same',
  blocked: 'Cannot copy',
};

/** The plan's items by module, in the plan's order; what stays the same only when asked. */
export function itemsByModule(
  items: readonly PlanItem[],
  showUnchanged: boolean,
): { module: string; items: PlanItem[] }[] {
  const groups: { module: string; items: PlanItem[] }[] = [];
  for (const item of items) {
    if (!showUnchanged && item.action === 'alone') continue;
    let group = groups.find((candidate) => candidate.module === item.module);
    if (!group) {
      group = { module: item.module, items: [] };
      groups.push(group);
    }
    group.items.push(item);
  }
  return groups;
}

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

/** "3 to create, 1 to change, 20 the same, 1 that cannot be copied". */
export function countsLine(counts: CopyPlan['counts']): string {
  const parts = [
    counts.create > 0 ? `${counts.create} to create` : null,
    counts.change > 0 ? `${counts.change} to change` : null,
    counts.alone > 0 ? `${counts.alone} the same` : null,
    counts.blocked > 0 ? `${plural(counts.blocked, 'item')} that cannot be copied` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'Nothing to copy';
}

/** What the plan costs against the service's limit, in a sentence. */
export function callsLine(plan: Pick<CopyPlan, 'totalCalls' | 'minimumMinutes'>): string {
  if (plan.totalCalls === 0) return 'It makes no calls.';
  const calls = plural(plan.totalCalls, 'call');
  if (plan.minimumMinutes === 0) {
    return `${calls} when the Outbox sends it, within one window of every endpoint's limit (200 calls per 2 minutes).`;
  }
  return `${calls} when the Outbox sends it; at 200 calls per endpoint per 2 minutes that takes at least ${plural(Math.ceil(plan.minimumMinutes), 'minute')}.`;
}

/** The changes a plan queues (items that create or change). */
export const queuedCount = (counts: CopyPlan['counts']) => counts.create + counts.change;
