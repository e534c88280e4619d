import { describe, expect, it } from 'vitest';
import type { OverallStatus } from '../../../src/shared/ipc/areas/router';
import {
  deriveOverallStatus,
  type OverallStatusInput,
  type RoutePair,
} from '../../../src/main/router/status/deriveOverallStatus';

const ok = (execution: RoutePair['execution']): RoutePair => ({
  ruleStatus: 'active',
  targetStatus: 'active',
  execution,
});
const routed = (...pairs: RoutePair[]): OverallStatusInput => ({
  stage: 'routed',
  publisherStatus: 'active',
  pairs,
});

/** One row per line of spec 000's status table and priority rules, plus the cases it leaves open. */
const TABLE: [string, OverallStatusInput, OverallStatus][] = [
  // Status table
  [
    'Received: stored, not yet picked up',
    { stage: 'received', publisherStatus: 'active', pairs: [] },
    'Received',
  ],
  [
    'In Queue: received, not yet processed',
    { stage: 'queued', publisherStatus: 'active', pairs: [] },
    'In Queue',
  ],
  ['In Progress: an execution is running', routed(ok('In Progress')), 'In Progress'],
  [
    'In Progress: an execution waits in the queue',
    routed(ok('Success'), ok('In Queue')),
    'In Progress',
  ],
  ['In Progress: a retry is scheduled', routed(ok('Retry Scheduled')), 'In Progress'],
  [
    'Success: delivered to every target of every rule',
    routed(ok('Success'), ok('Success')),
    'Success',
  ],
  ['Failed: not delivered to one target', routed(ok('Success'), ok('Failed')), 'Failed'],
  ['Unmatched: no rule filter matched (no pairs)', routed(), 'Unmatched'],
  [
    'Unprocessed: inactive publisher',
    { stage: 'routed', publisherStatus: 'inactive', pairs: [ok('Success')] },
    'Unprocessed',
  ],
  [
    'Unprocessed: inactive publisher, before routing',
    { stage: 'received', publisherStatus: 'inactive', pairs: [] },
    'Unprocessed',
  ],
  [
    'Unprocessed: inactive rule',
    routed({ ruleStatus: 'inactive', targetStatus: 'active', execution: null }),
    'Unprocessed',
  ],
  [
    'Unprocessed: inactive target',
    routed({ ruleStatus: 'active', targetStatus: 'inactive', execution: null }),
    'Unprocessed',
  ],
  [
    'Dropped: deleted target',
    routed({ ruleStatus: 'active', targetStatus: 'deleted', execution: null }),
    'Dropped',
  ],
  [
    'Dropped: disabled target',
    routed({ ruleStatus: 'active', targetStatus: 'disabled', execution: null }),
    'Dropped',
  ],
  [
    'Dropped: deleted rule',
    routed({ ruleStatus: 'deleted', targetStatus: 'active', execution: null }),
    'Dropped',
  ],
  [
    'Dropped: disabled rule',
    routed({ ruleStatus: 'disabled', targetStatus: 'active', execution: null }),
    'Dropped',
  ],
  ['Dropped: dropped at attempt time', routed(ok('Dropped')), 'Dropped'],
  // Priority rules 2-4: Failed > Dropped > Success
  ['rule 3: any Dropped with Success is Dropped', routed(ok('Success'), ok('Dropped')), 'Dropped'],
  ['rule 3: any Failed with Success is Failed', routed(ok('Failed'), ok('Success')), 'Failed'],
  ['rule 4: Failed and Dropped is Failed', routed(ok('Dropped'), ok('Failed')), 'Failed'],
  [
    'rule 4: Failed, Dropped and Success is Failed',
    routed(ok('Success'), ok('Dropped'), ok('Failed')),
    'Failed',
  ],
  // Cases the spec leaves open (README, "Overall status")
  [
    'open: inactive and deleted on one pair is Dropped',
    routed({ ruleStatus: 'inactive', targetStatus: 'deleted', execution: null }),
    'Dropped',
  ],
  [
    'open: Unprocessed and Success is Unprocessed',
    routed(ok('Success'), { ruleStatus: 'active', targetStatus: 'inactive', execution: null }),
    'Unprocessed',
  ],
  ['open: Dropped outranks Unprocessed', routed(ok('Unprocessed'), ok('Dropped')), 'Dropped'],
  ['open: Failed outranks Unprocessed', routed(ok('Unprocessed'), ok('Failed')), 'Failed'],
  [
    'open: an unfinished execution beside a Failed one is In Progress',
    routed(ok('Failed'), ok('Retry Scheduled')),
    'In Progress',
  ],
];

describe('deriveOverallStatus (spec 000, States and transitions)', () => {
  it.each(TABLE)('%s', (_label, input, expected) => {
    expect(deriveOverallStatus(input)).toBe(expected);
  });
});
