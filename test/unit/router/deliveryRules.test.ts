import { describe, expect, it } from 'vitest';
import { buildPayload, payloadJson } from '../../../src/main/router/delivery/buildPayload';
import { buildTargetRequest } from '../../../src/main/router/delivery/buildTargetRequest';
import { DELIVERED_PAYLOAD_SCHEMA } from '../../../src/main/router/delivery/deliveredPayloadSchema';
import { faultResponse } from '../../../src/main/router/delivery/faultResponse';
import { RateWindow } from '../../../src/main/router/engine/rateWindow';
import {
  backoffDelayMs,
  parseRetryAfter,
  planNextAttempt,
} from '../../../src/main/router/delivery/retryPolicy';
import { SchemaValidator } from '../../../src/main/router/schema/schemaValidator';
import { TokenPacer } from '../../../src/main/router/delivery/tokenPacer';
import { VirtualClock } from '../../../src/main/router/engine/virtualClock';

describe('retries', () => {
  it('backs off 1, 2, 4 … minutes, at most an hour apart', () => {
    expect([1, 2, 3, 4, 7, 8, 10].map(backoffDelayMs)).toEqual([
      60_000, 120_000, 240_000, 480_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });

  it('retries no answer, 408, 429 and 5xx up to the retry count; 2xx succeeds; other 4xx fail at once', () => {
    const plan = (attempt: number, status: number | null, retryAfterMs: number | null = null) =>
      planNextAttempt({ attempt, retryCount: 2, status, retryAfterMs });
    expect(plan(1, 204)).toEqual({ verdict: 'success' });
    expect(plan(1, 500)).toEqual({ verdict: 'retry', delayMs: 60_000 });
    expect(plan(2, null)).toEqual({ verdict: 'retry', delayMs: 120_000 });
    expect(plan(3, 503)).toEqual({ verdict: 'failed' });
    expect(plan(1, 410)).toEqual({ verdict: 'failed' });
    expect(plan(1, 400)).toEqual({ verdict: 'failed' });
    expect(plan(1, 408)).toMatchObject({ verdict: 'retry' });
    expect(plan(1, 429, 7_000)).toEqual({ verdict: 'retry', delayMs: 7_000 });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2024-05-15T12:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 15 May 2024 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('fault targets', () => {
  it('a flaky target fails at exactly its rate, evenly and reproducibly', () => {
    const outcomes = (rate: number, calls: number) =>
      Array.from({ length: calls }, (_, call) => {
        const answer = faultResponse(
          { mode: 'flaky', failureRate: rate, retryAfterSeconds: 0 },
          call,
        );
        return answer.kind === 'response' ? answer.status : 0;
      });
    expect(outcomes(0.5, 6)).toEqual([500, 200, 500, 200, 500, 200]);
    expect(outcomes(0.25, 400).filter((s) => s === 500)).toHaveLength(100);
    expect(outcomes(0, 5).every((s) => s === 200)).toBe(true);
    expect(outcomes(1, 5).every((s) => s === 500)).toBe(true);
  });

  it('the other faults answer 500, 429 with Retry-After, 410, or never', () => {
    const fault = (mode: 'always_500' | 'rate_limited' | 'gone' | 'timeout') =>
      faultResponse({ mode, failureRate: 0.5, retryAfterSeconds: 12 }, 0);
    expect(fault('always_500')).toMatchObject({ status: 500 });
    expect(fault('rate_limited')).toMatchObject({ status: 429, headers: { 'retry-after': '12' } });
    expect(fault('gone')).toMatchObject({ status: 410 });
    expect(fault('timeout')).toEqual({ kind: 'timeout' });
  });
});

describe('limits', () => {
  it('ingress: 500 requests per minute, then 429 for 60 seconds', () => {
    const window = new RateWindow(500, 60_000, 60_000);
    for (let i = 0; i < 500; i++) expect(window.take(1_000 + i)).toBeNull();
    expect(window.take(2_000)).toBe(60_000);
    expect(window.take(30_000)).toBe(32_000);
    expect(window.take(62_000)).toBeNull();
  });

  it('a target rate limit spaces calls evenly', () => {
    const pacer = new TokenPacer(4);
    expect([0, 0, 0, 0, 0].map((now) => pacer.reserve(now))).toEqual([0, 250, 500, 750, 1000]);
    expect(pacer.reserve(5_000)).toBe(5_000);
  });
});

describe('the virtual clock', () => {
  it('a manual clock fires due timers in order when advanced', () => {
    const clock = new VirtualClock({ manual: true, startMs: 0 });
    const fired: string[] = [];
    clock.at(3_600_000, () => fired.push('an hour'));
    clock.at(60_000, () => fired.push('a minute'));
    const cancel = clock.at(120_000, () => fired.push('cancelled'));
    cancel();
    clock.advance(59_999);
    expect(fired).toEqual([]);
    clock.advance(3_600_000);
    expect(fired).toEqual(['a minute', 'an hour']);
    expect(clock.now()).toBe(3_659_999);
  });

  it('a scaled clock plays an hour of retries in a fraction of a second', async () => {
    const clock = new VirtualClock({ scale: 36_000 });
    const start = clock.now();
    const firedAt = await new Promise<number>((resolve) =>
      clock.at(start + 3_600_000, () => resolve(clock.now())),
    );
    expect(firedAt - start).toBeGreaterThanOrEqual(3_600_000);
    clock.close();
  });
});

describe('the delivered payload', () => {
  const input = {
    ruleId: '171580000000000001',
    targetId: '171580000000000002',
    version: 3,
    attempt: 2,
    account: {
      org_id: '7001',
      project: { name: 'P', environment: 'dev', id: '7002' },
      time_zone: 'UTC',
    },
    event: {
      id: '171580000000000003',
      data: { amount: 5, customer: { email: 'a@b.c' } },
      timeMs: 1_715_774_400_123.7,
      publisherId: '171580000000000004',
      service: 'custom',
      eventConfigId: '171580000000000005',
      apiName: 'order_created',
    },
  };
  const payload = buildPayload(input);

  it('payloadJson is JSON.stringify(buildPayload) exactly, attempt after attempt and account after account', () => {
    const event = { ...input.event };
    expect(payloadJson({ ...input, event })).toBe(JSON.stringify(payload));
    const third = { ...input, event, attempt: 3, targetId: '9"x' };
    expect(payloadJson(third)).toBe(JSON.stringify(buildPayload(third)));
    const moved = {
      ...input,
      event,
      account: {
        ...input.account,
        org_id: '8001',
        project: { ...input.account.project, name: 'Q' },
      },
    };
    expect(payloadJson(moved)).toBe(JSON.stringify(buildPayload(moved)));
    expect(payloadJson({ ...input, event, version: null })).toBe(
      JSON.stringify(buildPayload({ ...input, version: null })),
    );
  });

  it('validates against the spec schema, time_in_ms a number, ids long numeric strings', () => {
    expect(new SchemaValidator().validate(DELIVERED_PAYLOAD_SCHEMA, payload)).toEqual([]);
    expect(payload.events[0]!.time_in_ms).toBe(1_715_774_400_123);
    expect(payload.events[0]!.source).toBe('171580000000000004/custom/7001');
    expect(Object.keys(payload)).toEqual([
      'rule_id',
      'target_id',
      'version',
      'attempt',
      'account',
      'events',
    ]);
  });

  it('the spec schema refuses a payload with time_in_ms as a string', () => {
    const bad = structuredClone(payload) as unknown as { events: { time_in_ms: unknown }[] };
    bad.events[0]!.time_in_ms = '1715774400123';
    expect(new SchemaValidator().validate(DELIVERED_PAYLOAD_SCHEMA, bad)).not.toEqual([]);
  });

  it('fills header and query templates from the data; GET carries no body', () => {
    const request = buildTargetRequest(
      {
        id: '1',
        name: 'hook',
        kind: 'webhook',
        status: 'active',
        url: 'https://hooks.example/in?x=1',
        method: 'GET',
        headers: [{ name: 'X-Customer', value: 'mail {{customer.email}}' }],
        query: [
          { name: 'amount', value: '{{amount}}' },
          { name: 'none', value: '{{nope}}' },
        ],
        rateLimitPerSecond: 10,
        timeoutMs: 5_000,
        fault: null,
      },
      JSON.stringify(payload),
      payload.events[0]!.data,
    );
    expect(request.url).toBe('https://hooks.example/in?x=1&amount=5&none=');
    expect(request.headers['x-customer']).toBe('mail a@b.c');
    expect(request.body).toBeNull();
  });

  it('sends headers named like object members as they are named', () => {
    const request = buildTargetRequest(
      {
        id: '1',
        name: 'hook',
        kind: 'webhook',
        status: 'active',
        url: 'https://hooks.example/in',
        method: 'POST',
        headers: [
          { name: '__proto__', value: 'a' },
          { name: 'Constructor', value: '{{amount}}' },
        ],
        query: [],
        rateLimitPerSecond: 10,
        timeoutMs: 5_000,
        fault: null,
      },
      JSON.stringify(payload),
      payload.events[0]!.data,
    );
    expect(Object.entries(request.headers)).toEqual([
      ['content-type', 'application/json'],
      ['user-agent', 'PortalDesk-EventRouter/1'],
      ['__proto__', 'a'],
      ['constructor', '5'],
    ]);
  });
});
