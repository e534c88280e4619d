import type {
  ExecutionStatus,
  RuleExplanation,
  RuleView,
  TargetStatus,
  TargetView,
} from '../../../shared/ipc/areas/router';
import type { CompareContext } from './compareValue';
import { pairStatus } from '../status/deriveOverallStatus';
import { explainFilter } from './explainFilter';
import { filterMatches } from './filterMatches';

export interface PlannedPair {
  ruleId: string;
  targetId: string;
  ruleStatus: RuleView['status'];
  targetStatus: TargetStatus;
  retryCount: number;
  /** In Queue to deliver; Dropped or Unprocessed when the rule or target forbids it. */
  status: ExecutionStatus;
  note: string | null;
}

export interface RoutePlan {
  explanation: RuleExplanation[];
  pairs: PlannedPair[];
}

function pairNote(
  status: ExecutionStatus,
  rule: RuleView,
  target: TargetView | undefined,
): string | null {
  if (status === 'In Queue') return null;
  if (rule.status !== 'active') return `The rule is ${rule.status}.`;
  if (!target) return 'The target no longer exists.';
  return `The target is ${target.status}.`;
}

/**
 * Matches one event against every rule that lists its event config, whatever the rule's status
 * (a deleted rule still says the event would have been Dropped), and plans one execution per
 * matched rule and target. Pure: the caller stores the plan and queues what is In Queue.
 */
export function planRoutes(input: {
  data: unknown;
  rules: readonly RuleView[];
  targets: ReadonlyMap<string, TargetView>;
  context: CompareContext;
  /** Build the explanation too (reading an event); routing only needs the verdicts. */
  explain?: boolean;
  /** Rules changed after this instant are flagged in the explanation. */
  eventTimeMs?: number;
}): RoutePlan {
  const explanation: RuleExplanation[] = [];
  const pairs: PlannedPair[] = [];
  for (const rule of input.rules) {
    let matched = true;
    if (input.explain) {
      const filter = rule.filter ? explainFilter(rule.filter, input.data, input.context) : null;
      matched = filter ? filter.matched : true;
      explanation.push({
        ruleId: rule.id,
        ruleName: rule.name,
        ruleStatus: rule.status,
        matched,
        deliverAll: filter === null,
        filter,
        changedSince: input.eventTimeMs !== undefined && rule.updatedAt > input.eventTimeMs,
      });
    } else if (rule.filter) {
      matched = filterMatches(rule.filter, input.data, input.context);
    }
    if (!matched) continue;
    for (const targetId of rule.targetIds) {
      const target = input.targets.get(targetId);
      // A target that no longer exists is treated as deleted.
      const targetStatus: TargetStatus = target?.status ?? 'deleted';
      const status = pairStatus({ ruleStatus: rule.status, targetStatus, execution: null });
      pairs.push({
        ruleId: rule.id,
        targetId,
        ruleStatus: rule.status,
        targetStatus,
        retryCount: rule.retryCount,
        status,
        note: pairNote(status, rule, target),
      });
    }
  }
  return { explanation, pairs };
}
