import type {
  ExecutionStatus,
  OverallStatus,
  PublisherStatus,
  RuleStatus,
  TargetStatus,
} from '../../../shared/ipc/areas/router';

/** Where the event is in its life before its routes are known. */
export type EventStage = 'received' | 'queued' | 'routed';

/** One (rule, target) pair of a rule whose filter matched the event. */
export interface RoutePair {
  ruleStatus: RuleStatus;
  targetStatus: TargetStatus;
  /** The execution's status once one exists; null for a pair never run. */
  execution: ExecutionStatus | null;
}

export interface OverallStatusInput {
  stage: EventStage;
  publisherStatus: PublisherStatus;
  /** Every (rule, target) pair of the rules whose filter matched (or that deliver all events). */
  pairs: readonly RoutePair[];
}

const UNFINISHED: ReadonlySet<ExecutionStatus> = new Set([
  'In Queue',
  'In Progress',
  'Retry Scheduled',
]);

/**
 * What a pair contributes: a deleted or disabled rule or target drops it (spec: Dropped), an
 * inactive one leaves it unprocessed (spec: Unprocessed); otherwise its execution's status.
 * Dropped wins over Unprocessed when both apply, as it ranks higher among final statuses.
 */
export function pairStatus(pair: RoutePair): ExecutionStatus {
  if (pair.execution === 'Dropped') return 'Dropped';
  const statuses = [pair.ruleStatus, pair.targetStatus];
  if (statuses.some((status) => status === 'deleted' || status === 'disabled')) return 'Dropped';
  if (statuses.includes('inactive')) return 'Unprocessed';
  return pair.execution ?? 'In Queue';
}

/**
 * The overall status of an event (spec 000, "States and transitions"), as one pure decision.
 *
 * The spec's rules, in order: an inactive publisher leaves the event Unprocessed; before routing it
 * is Received, then In Queue; no matched pair is Unmatched; then Failed > Dropped > Success across
 * the executions. Where the spec is silent (README, "Overall status"): an unfinished execution
 * keeps the event In Progress; Unprocessed (an inactive rule or target) ranks below Dropped and
 * above Success, since such an event was not delivered to every target of its rules.
 */
export function deriveOverallStatus(input: OverallStatusInput): OverallStatus {
  if (input.publisherStatus === 'inactive') return 'Unprocessed';
  if (input.stage === 'received') return 'Received';
  if (input.stage === 'queued') return 'In Queue';
  if (input.pairs.length === 0) return 'Unmatched';
  const statuses = new Set(input.pairs.map(pairStatus));
  if ([...statuses].some((status) => UNFINISHED.has(status))) return 'In Progress';
  if (statuses.has('Failed')) return 'Failed';
  if (statuses.has('Dropped')) return 'Dropped';
  if (statuses.has('Unprocessed')) return 'Unprocessed';
  return 'Success';
}
