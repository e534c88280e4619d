import { describe, expect, it } from 'vitest';
import { compareWithServer } from '../../../src/main/outbox/compareWithServer';
import {
  CLOCK_SKEW_MS,
  findLostComment,
  findLostCreate,
} from '../../../src/main/outbox/findLostCreate';
import { overlayOf } from '../../../src/main/outbox/overlayOf';
import { replayBackoff, BACKOFF_MAX_MS } from '../../../src/main/outbox/replayBackoff';
import { classifyFailure, SIGNED_OUT_RETRY_MS } from '../../../src/main/outbox/replayFailure';
import { ApiError, CLIENT_ERROR_CODES } from '../../../src/main/api/client/apiError';
import { createBody, updateBody } from '../../../src/main/outbox/requestBody';
import { Entity } from '@portaldesk/portal-api/domain/entity';
import { outboxOp as op } from './outboxOp';

const types = new Map([
  ['cf_tags', 'multi_select'],
  ['cf_watchers', 'multi_user'],
  ['cf_cost', 'currency'],
  ['cf_audit', 'timestamp'],
  ['cf_owner', 'user_pick_list'],
]);

describe('compareWithServer: conflicts per field', () => {
  const fields = {
    name: { value: 'Mine', base: 'Base' },
    description: { value: 'My text', base: 'Old text' },
    cf_tags: { value: ['A', 'C'], base: ['A'] },
  };
  it('sends fields the server still holds at their base', () => {
    const server = { name: 'Base', description: 'Old text', cf_tags: ['A'] } as Record<
      string,
      unknown
    >;
    expect(compareWithServer(fields, types, (f) => server[f])).toMatchObject({
      send: ['name', 'description', 'cf_tags'],
      applied: [],
      conflicts: [],
    });
  });
  it('holds a field changed on the server, sends the others', () => {
    const server = { name: 'Theirs', description: 'Old text', cf_tags: ['A'] } as Record<
      string,
      unknown
    >;
    expect(compareWithServer(fields, types, (f) => server[f])).toMatchObject({
      send: ['description', 'cf_tags'],
      applied: [],
      conflicts: ['name'],
    });
  });
  it('counts a field already holding my value as delivered (a send whose answer was lost)', () => {
    const server = { name: 'Mine', description: 'My text', cf_tags: ['C', 'A'] } as Record<
      string,
      unknown
    >;
    expect(compareWithServer(fields, types, (f) => server[f])).toMatchObject({
      send: [],
      applied: ['name', 'description', 'cf_tags'],
      conflicts: [],
    });
  });
  it('compares currency by code and amount, users by zpuid and time stamps by instant', () => {
    const more = {
      cf_cost: {
        value: { currency_code: 'EUR', amount: 5, formatted_amount: 'EUR 5.00' },
        base: null,
      },
      cf_owner: { value: { zpuid: '7', name: null }, base: null },
      cf_audit: { value: '2025-01-06T09:00:00.000Z', base: null },
    };
    const server: Record<string, unknown> = {
      cf_cost: { currency_code: 'EUR', amount: 5, formatted_amount: '€5' },
      cf_owner: { zpuid: '7', name: 'Ann' },
      cf_audit: '2025-01-06T10:00:00+01:00',
    };
    expect(compareWithServer(more, types, (f) => server[f]).applied).toEqual([
      'cf_cost',
      'cf_owner',
      'cf_audit',
    ]);
  });
});

describe('request bodies', () => {
  it('sends multi-select and multi-user changes as one {add, remove}', () => {
    const fields = {
      cf_tags: { value: ['A', 'C'], base: ['A', 'B'] },
      cf_watchers: { value: [{ zpuid: '2', name: null }], base: [{ zpuid: '1', name: 'x' }] },
      cf_owner: { value: { zpuid: '9', name: 'N' }, base: null },
      cf_cost: {
        value: { currency_code: 'EUR', amount: 3, formatted_amount: 'EUR 3.00' },
        base: null,
      },
      cf_audit: { value: '2025-01-06T09:00:00.000Z', base: null },
      status: { value: { id: '5', name: 'Done' }, base: null },
      description: { value: null, base: 'x' },
    };
    expect(updateBody(fields, types, Object.keys(fields))).toEqual({
      cf_tags: [{ add: ['C'], remove: ['B'] }],
      cf_watchers: [{ add: [{ zpuid: '2' }], remove: [{ zpuid: '1' }] }],
      cf_owner: { zpuid: '9' },
      cf_cost: { currency_code: 'EUR', amount: 3 },
      cf_audit: '2025-01-06T09:00:00Z',
      status: { id: '5' },
      description: '',
    });
  });
  it('sends a time stamp written at an offset at that offset, in the spec form (issue 14)', () => {
    const at = (value: string) =>
      updateBody({ cf_audit: { value, base: null } }, types, ['cf_audit']).cf_audit;
    expect(at('2025-01-06T10:30:00+05:30')).toBe('2025-01-06T10:30:00+05:30');
    expect(at('2025-01-06T10:30:00.250-03:00')).toBe('2025-01-06T10:30:00-03:00');
    expect(at('2025-01-06T10:30+05:45')).toBe('2025-01-06T10:30:00+05:45');
    expect(at('2025-01-06T05:00:00.000Z')).toBe('2025-01-06T05:00:00Z');
  });
  it('creates with whole lists and leaves empty values out', () => {
    expect(
      createBody(
        {
          name: { value: 'N', base: null },
          cf_tags: { value: ['A'], base: null },
          cf_watchers: { value: [{ zpuid: '2', name: 'x' }], base: null },
          cf_owner: { value: null, base: null },
        },
        types,
      ),
    ).toEqual({ name: 'N', cf_tags: ['A'], cf_watchers: [{ zpuid: '2' }] });
  });
});

const entity = (id: string, name: string, created: string, custom: Record<string, unknown> = {}) =>
  Entity.parse({
    id,
    name,
    status: { id: '1', name: 'Open' },
    layout: { id: '1' },
    created_time: created,
    last_updated_time: created,
    ...custom,
  });

describe('findLostCreate', () => {
  const sentAt = '2025-01-06T09:00:00.000Z';
  const fields = { name: { value: 'Laptop', base: null }, cf_tags: { value: ['A'], base: null } };
  it('adopts the record made from the lost send, not an older one or one adopted already', () => {
    const older = entity('1', 'Laptop', '2025-01-05T09:00:00.000Z', { cf_tags: ['A'] });
    const made = entity('2', 'Laptop', '2025-01-06T09:00:01.000Z', { cf_tags: ['A'] });
    const other = entity('3', 'Laptop', '2025-01-06T09:00:02.000Z', { cf_tags: ['B'] });
    expect(findLostCreate([other, made, older], fields, types, sentAt, new Set())?.id).toBe('2');
    expect(findLostCreate([other, made, older], fields, types, sentAt, new Set(['2']))).toBeNull();
  });
  it('allows for the service clock lagging ours', () => {
    const lagging = new Date(Date.parse(sentAt) - CLOCK_SKEW_MS + 1000).toISOString();
    expect(
      findLostCreate(
        [entity('4', 'Laptop', lagging, { cf_tags: ['A'] })],
        fields,
        types,
        sentAt,
        new Set(),
      )?.id,
    ).toBe('4');
  });
  it('finds a lost comment by its content', () => {
    const comment = {
      id: '9',
      content: 'hi',
      attachments: [],
      created_by: null,
      created_time: '2025-01-06T09:00:03.000Z',
      last_updated_time: null,
    };
    expect(findLostComment([comment], 'hi', sentAt, new Set())?.id).toBe('9');
    expect(findLostComment([comment], 'hello', sentAt, new Set())).toBeNull();
  });
  it("passes over another user's identical comment or record once it knows who we are", () => {
    const by = (id: string, zpuid: string, at: string) => ({
      id,
      content: 'hi',
      attachments: [],
      created_by: { zpuid, name: null, email: null },
      created_time: at,
      last_updated_time: null,
    });
    // Theirs made first, ours a second later (our answer lost): ours, not the oldest.
    const theirs = by('8', 'them', '2025-01-06T09:00:01.000Z');
    const ours = by('9', 'me', '2025-01-06T09:00:02.000Z');
    expect(findLostComment([ours, theirs], 'hi', sentAt, new Set(), 'me')?.id).toBe('9');
    expect(findLostComment([theirs], 'hi', sentAt, new Set(), 'me')).toBeNull();
    // Not known yet (nothing of ours answered in the portal): the content alone, as before.
    expect(findLostComment([ours, theirs], 'hi', sentAt, new Set(), null)?.id).toBe('8');
    const record = (id: string, owner: string) =>
      entity(id, 'Laptop', '2025-01-06T09:00:01.000Z', {
        cf_tags: ['A'],
        owner: { zpuid: owner, name: null },
      });
    expect(
      findLostCreate([record('5', 'them')], fields, types, sentAt, new Set(), 'me'),
    ).toBeNull();
    expect(findLostCreate([record('6', 'me')], fields, types, sentAt, new Set(), 'me')?.id).toBe(
      '6',
    );
  });
});

describe('overlayOf and backoff', () => {
  it('shows the newest queued value with the first base', () => {
    const ops = [
      op({ seq: 1, kind: 'update', updatedAt: 't1', fields: { name: { value: 'A', base: 'S' } } }),
      op({
        seq: 2,
        kind: 'trash',
        updatedAt: 't2',
        fields: { trashed_time: { value: 'x', base: null } },
      }),
      op({ seq: 3, kind: 'update', updatedAt: 't3', fields: { name: { value: 'B', base: 'A' } } }),
    ];
    expect([...overlayOf(ops)]).toEqual([['name', { value: 'B', base: 'S', editedAt: 't3' }]]);
  });
  it('grows exponentially up to a cap', () => {
    expect(replayBackoff(1, () => 0)).toBe(1000);
    expect(replayBackoff(2, () => 0)).toBe(2000);
    expect(replayBackoff(40, () => 0.999)).toBeLessThanOrEqual(BACKOFF_MAX_MS);
  });
});

describe('classifyFailure: what a failed send means for the replay', () => {
  const apiError = (init: Partial<ConstructorParameters<typeof ApiError>[0]>) =>
    new ApiError({
      kind: 'transient',
      status: 503,
      errorCode: 'SERVICE_UNAVAILABLE',
      message: 'The service is busy.',
      endpoint: { name: 'updateEntity', label: 'PATCH' },
      ...init,
    });

  it('stops the record on a refusal and holds the replay when there is no connection', () => {
    expect(classifyFailure(apiError({ kind: 'permanent', status: 400 }), 0, () => 0)).toEqual({
      kind: 'refused',
      message: 'The service is busy.',
    });
    const offline = apiError({ status: null, errorCode: CLIENT_ERROR_CODES.timeout });
    expect(classifyFailure(offline, 0, () => 0).kind).toBe('offline');
  });

  it('waits as the service asks, for a sign-in, or with the backoff of the next attempt', () => {
    const rate = apiError({ kind: 'rate', status: 429, retryAfterSeconds: 7 });
    expect(classifyFailure(rate, 0, () => 0)).toMatchObject({ kind: 'retry', waitMs: 7000 });
    expect(classifyFailure(apiError({ kind: 'auth', status: 401 }), 0, () => 0)).toMatchObject({
      waitMs: SIGNED_OUT_RETRY_MS,
    });
    expect(classifyFailure(apiError({}), 1, () => 0)).toMatchObject({
      waitMs: replayBackoff(2, () => 0),
      unexpected: false,
    });
    expect(classifyFailure(new Error('bug'), 0, () => 0)).toMatchObject({
      message: 'bug',
      unexpected: true,
    });
  });
});
