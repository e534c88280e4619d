import { describe, expect, it } from 'vitest';
import { COMPARATORS, FilterCondition, type ValueType } from '../../../src/shared/ipc/areas/router';
import { compareValue } from '../../../src/main/router/filter/compareValue';

// Wednesday 15 May 2024, noon UTC: the ISO week runs Mon 13 - Sun 19 May.
const context = { nowMs: Date.parse('2024-05-15T12:00:00Z'), timeZone: 'UTC' };
const match = (type: ValueType, comparator: string, actual: unknown, value?: unknown) =>
  compareValue(type, comparator, actual, value as never, context).matched;

type Row = [comparator: string, actual: unknown, value: unknown, expected: boolean];

const STRING: Row[] = [
  ['is', 'Open', 'Open', true],
  ['is', 'open', 'Open', false],
  ['is', undefined, 'Open', false],
  ['is_not', 'Closed', 'Open', true],
  ['is_not', 'Open', 'Open', false],
  ['is_not', undefined, 'Open', true],
  ['contains', 'ticket-42-urgent', '42', true],
  ['contains', 'ticket', '42', false],
  ['not_contains', 'ticket', '42', true],
  ['not_contains', 'ticket-42', '42', false],
  ['starts_with', 'ACME Ltd', 'ACME', true],
  ['starts_with', 'The ACME', 'ACME', false],
  ['ends_with', 'a@example.com', '@example.com', true],
  ['ends_with', 'a@example.org', '@example.com', false],
  ['is_empty', '', undefined, true],
  ['is_empty', null, undefined, true],
  ['is_empty', undefined, undefined, true],
  ['is_empty', 'x', undefined, false],
  ['is_not_empty', 'x', undefined, true],
  ['is_not_empty', '', undefined, false],
  ['is', 42, '42', false],
];

const NUMBER: Row[] = [
  ['eq', 10, 10, true],
  ['eq', 10.5, 10, false],
  ['neq', 10.5, 10, true],
  ['neq', 10, 10, false],
  ['lt', 9, 10, true],
  ['lt', 10, 10, false],
  ['lte', 10, 10, true],
  ['lte', 11, 10, false],
  ['gt', 11, 10, true],
  ['gt', 10, 10, false],
  ['gte', 10, 10, true],
  ['gte', 9, 10, false],
  ['between', 10, [10, 20], true],
  ['between', 20, [10, 20], true],
  ['between', 15, [20, 10], true],
  ['between', 21, [10, 20], false],
  ['not_between', 21, [10, 20], true],
  ['not_between', 15, [10, 20], false],
  ['is_empty', null, undefined, true],
  ['is_empty', 0, undefined, false],
  ['is_not_empty', 0, undefined, true],
  ['is_not_empty', undefined, undefined, false],
  ['eq', '10', 10, false],
];

const BOOLEAN: Row[] = [
  ['is', true, true, true],
  ['is', false, true, false],
  ['is', undefined, false, false],
  ['is_not', false, true, true],
  ['is_not', true, true, false],
  ['is', 'true', true, false],
];

const DATETIME: Row[] = [
  ['is', '2024-05-15T08:00:00Z', '2024-05-15', true],
  ['is', '2024-05-16T00:00:00Z', '2024-05-15', false],
  ['is', '2024-05-15T08:00:00Z', '2024-05-15T08:00:00Z', true],
  ['is', Date.parse('2024-05-15T08:00:00Z'), '2024-05-15', true],
  ['is_not', '2024-05-14T23:59:59Z', '2024-05-15', true],
  ['is_not', '2024-05-15T23:59:59Z', '2024-05-15', false],
  ['before', '2024-05-14T23:59:59Z', '2024-05-15', true],
  ['before', '2024-05-15T00:00:00Z', '2024-05-15', false],
  ['after', '2024-05-16T00:00:00Z', '2024-05-15', true],
  ['after', '2024-05-15T23:59:59Z', '2024-05-15', false],
  ['after', '2024-05-15T08:00:01Z', '2024-05-15T08:00:00Z', true],
  ['between', '2024-05-20T12:00:00Z', ['2024-05-15', '2024-05-20'], true],
  ['between', '2024-05-21T00:00:00Z', ['2024-05-15', '2024-05-20'], false],
  ['not_between', '2024-05-21T00:00:00Z', ['2024-05-15', '2024-05-20'], true],
  ['not_between', '2024-05-16T00:00:00Z', ['2024-05-15', '2024-05-20'], false],
  ['is_empty', null, undefined, true],
  ['is_empty', '2024-05-15T00:00:00Z', undefined, false],
  ['today', '2024-05-15T23:59:59Z', undefined, true],
  ['today', '2024-05-16T00:00:00Z', undefined, false],
  ['tomorrow', '2024-05-16T10:00:00Z', undefined, true],
  ['tomorrow', '2024-05-17T10:00:00Z', undefined, false],
  ['tomorrow_onwards', '2030-01-01T00:00:00Z', undefined, true],
  ['tomorrow_onwards', '2024-05-15T23:00:00Z', undefined, false],
  ['yesterday', '2024-05-14T01:00:00Z', undefined, true],
  ['yesterday', '2024-05-15T01:00:00Z', undefined, false],
  ['till_yesterday', '2020-01-01T00:00:00Z', undefined, true],
  ['till_yesterday', '2024-05-15T00:00:00Z', undefined, false],
  ['last_week', '2024-05-06T00:00:00Z', undefined, true],
  ['last_week', '2024-05-13T00:00:00Z', undefined, false],
  ['current_week', '2024-05-13T00:00:00Z', undefined, true],
  ['current_week', '2024-05-19T23:59:59Z', undefined, true],
  ['current_week', '2024-05-20T00:00:00Z', undefined, false],
  ['next_week', '2024-05-20T00:00:00Z', undefined, true],
  ['next_week', '2024-05-27T00:00:00Z', undefined, false],
  ['last_month', '2024-04-30T23:59:59Z', undefined, true],
  ['last_month', '2024-05-01T00:00:00Z', undefined, false],
  ['current_month', '2024-05-31T23:59:59Z', undefined, true],
  ['current_month', '2024-06-01T00:00:00Z', undefined, false],
  ['next_month', '2024-06-30T12:00:00Z', undefined, true],
  ['next_month', '2024-07-01T00:00:00Z', undefined, false],
  ['today', 'not a date', undefined, false],
];

describe.each([
  ['string', STRING],
  ['number', NUMBER],
  ['boolean', BOOLEAN],
  ['datetime', DATETIME],
] as [ValueType, Row[]][])('%s comparators', (type, rows) => {
  it.each(rows)(`${type} %s: %j vs %j → %s`, (comparator, actual, value, expected) => {
    expect(match(type, comparator, actual, value)).toBe(expected);
  });

  it('covers every comparator the service documents for the type', () => {
    const tested = new Set(rows.map((row) => row[0]));
    expect(COMPARATORS[type].map((c) => c.id).filter((id) => !tested.has(id))).toEqual([]);
  });
});

describe('dates in the account time zone', () => {
  it('reads "today" and bare dates as local days', () => {
    const berlin = { nowMs: Date.parse('2024-05-15T23:30:00Z'), timeZone: 'Europe/Berlin' };
    // 23:30 UTC is already 16 May in Berlin.
    expect(
      compareValue('datetime', 'today', '2024-05-15T22:30:00Z', undefined, berlin).matched,
    ).toBe(true);
    expect(
      compareValue('datetime', 'today', '2024-05-15T21:30:00Z', undefined, berlin).matched,
    ).toBe(false);
    expect(
      compareValue('datetime', 'is', '2024-05-15T22:30:00Z', '2024-05-16', berlin).matched,
    ).toBe(true);
  });
});

describe('condition validation', () => {
  it('refuses a comparator of another type and operands of the wrong shape', () => {
    const bad = (value: unknown) => FilterCondition.safeParse(value).success;
    expect(bad({ path: 'a', type: 'number', comparator: 'contains', value: 1 })).toBe(false);
    expect(bad({ path: 'a', type: 'number', comparator: 'between', value: 1 })).toBe(false);
    expect(bad({ path: 'a', type: 'string', comparator: 'is_empty', value: 'x' })).toBe(false);
    expect(bad({ path: 'a', type: 'datetime', comparator: 'before', value: '15/05/2024' })).toBe(
      false,
    );
    expect(bad({ path: 'a', type: 'datetime', comparator: 'before', value: '2024-05-15' })).toBe(
      true,
    );
    expect(bad({ path: 'a..b', type: 'string', comparator: 'is', value: 'x' })).toBe(false);
  });
});
