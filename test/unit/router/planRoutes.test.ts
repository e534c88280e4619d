import { describe, expect, it } from 'vitest';
import type { RuleView, TargetView } from '../../../src/shared/ipc/areas/router';
import { planRoutes } from '../../../src/main/router/filter/planRoutes';

const context = { nowMs: Date.parse('2024-05-15T12:00:00Z'), timeZone: 'UTC' };
const target = (id: string, status: TargetView['status'] = 'active'): TargetView => ({
  id,
  name: id,
  kind: 'request_bin',
  status,
  url: null,
  method: 'POST',
  headers: [],
  query: [],
  rateLimitPerSecond: 300,
  timeoutMs: 10_000,
  fault: null,
});
const rule = (id: string, patch: Partial<RuleView> = {}): RuleView => ({
  id,
  name: `rule ${id}`,
  status: 'active',
  retryCount: 3,
  eventConfigIds: ['1'],
  filter: null,
  targetIds: ['10'],
  updatedAt: 0,
  ...patch,
});
const targets = new Map([
  ['10', target('10')],
  ['11', target('11', 'deleted')],
  ['12', target('12', 'inactive')],
]);

describe('planRoutes', () => {
  it('explains every condition with the values compared, and plans pairs for matched rules only', () => {
    const plan = planRoutes({
      data: { amount: 250, customer: { tier: 'gold' } },
      rules: [
        rule('1', {
          filter: {
            operator: 'AND',
            conditions: [
              { path: 'amount', type: 'number', comparator: 'gt', value: 100 },
              { path: 'customer.tier', type: 'string', comparator: 'is', value: 'gold' },
            ],
          },
        }),
        rule('2', {
          filter: {
            operator: 'OR',
            conditions: [
              { path: 'amount', type: 'number', comparator: 'lt', value: 100 },
              { path: 'missing', type: 'string', comparator: 'is', value: 'x' },
            ],
          },
        }),
      ],
      targets,
      context,
      explain: true,
    });
    expect(plan.pairs.map((pair) => pair.ruleId)).toEqual(['1']);
    const [first, second] = plan.explanation;
    expect(first).toMatchObject({ ruleId: '1', matched: true, deliverAll: false });
    expect(first!.filter!.conditions).toEqual([
      expect.objectContaining({ path: 'amount', actual: 250, expected: 100, matched: true }),
      expect.objectContaining({
        path: 'customer.tier',
        actual: 'gold',
        expected: 'gold',
        matched: true,
      }),
    ]);
    expect(second).toMatchObject({ ruleId: '2', matched: false });
    expect(second!.filter!.conditions[1]).toMatchObject({
      matched: false,
      actual: null,
      note: 'the data has no such key',
    });
  });

  it('nested groups combine with AND/OR', () => {
    const plan = planRoutes({
      data: { a: 1, b: 'x' },
      rules: [
        rule('1', {
          filter: {
            operator: 'AND',
            conditions: [
              { path: 'a', type: 'number', comparator: 'eq', value: 1 },
              {
                operator: 'OR',
                conditions: [
                  { path: 'b', type: 'string', comparator: 'is', value: 'y' },
                  { path: 'b', type: 'string', comparator: 'is', value: 'x' },
                ],
              },
            ],
          },
        }),
      ],
      targets,
      context,
      explain: true,
    });
    expect(plan.explanation[0]!.matched).toBe(true);
  });

  it('gives deleted, missing and inactive targets and non-active rules their status without delivering', () => {
    const plan = planRoutes({
      data: {},
      rules: [
        rule('1', { targetIds: ['10', '11', '12', '99'] }),
        rule('2', { status: 'disabled' }),
        rule('3', { status: 'inactive' }),
      ],
      targets,
      context,
      explain: true,
    });
    expect(plan.pairs.map((pair) => [pair.ruleId, pair.targetId, pair.status])).toEqual([
      ['1', '10', 'In Queue'],
      ['1', '11', 'Dropped'],
      ['1', '12', 'Unprocessed'],
      ['1', '99', 'Dropped'],
      ['2', '10', 'Dropped'],
      ['3', '10', 'Unprocessed'],
    ]);
    expect(plan.pairs[1]!.note).toBe('The target is deleted.');
  });

  it('routing without the explanation reaches the same verdicts, and flags rules changed after the event', () => {
    const rules = [
      rule('1', {
        filter: {
          operator: 'OR',
          conditions: [{ path: 'a', type: 'number', comparator: 'gt', value: 5 }],
        },
      }),
      rule('2', {
        updatedAt: 2_000,
        filter: {
          operator: 'AND',
          conditions: [{ path: 'a', type: 'number', comparator: 'lt', value: 5 }],
        },
      }),
    ];
    for (const a of [1, 9]) {
      const fast = planRoutes({ data: { a }, rules, targets, context });
      const full = planRoutes({
        data: { a },
        rules,
        targets,
        context,
        explain: true,
        eventTimeMs: 1_000,
      });
      expect(fast.pairs).toEqual(full.pairs);
      expect(fast.explanation).toEqual([]);
      expect(full.explanation.map((e) => e.changedSince)).toEqual([false, true]);
    }
  });
});
