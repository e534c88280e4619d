import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyStatus } from '../../../../src/main/api/client/apiError';
import {
  ENDPOINTS,
  type EndpointSpec,
  type HttpMethod,
} from '../../../../src/main/api/client/endpoints';
import { describeNetworkFailure } from '../../../../src/main/api/client/networkFailure';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isIdempotentCall,
  mayRetry,
  retryAfterSeconds,
} from '../../../../src/main/api/client/retryPolicy';
import { networkError } from './fakes';

describe('retry policy', () => {
  it('grows the cap exponentially and draws below it (full jitter)', () => {
    const caps = [1, 2, 3, 4, 8, 20].map((retry) =>
      backoffDelay(retry, DEFAULT_RETRY_POLICY, () => 0.999999),
    );
    expect(caps).toEqual([499, 999, 1999, 3999, 29999, 29999]);
    expect(backoffDelay(3, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
  });

  it('resends idempotent methods, and POST/PATCH only when the request never reached the server', () => {
    const idempotent = (method: HttpMethod) => isIdempotentCall(method, false, undefined);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expect(mayRetry(idempotent(method), 'answered')).toBe(true);
      expect(mayRetry(idempotent(method), 'maybe-reached')).toBe(true);
    }
    for (const method of ['POST', 'PATCH'] as const) {
      expect(mayRetry(idempotent(method), 'answered')).toBe(false);
      expect(mayRetry(idempotent(method), 'maybe-reached')).toBe(false);
      expect(mayRetry(idempotent(method), 'unreached')).toBe(true);
    }
  });

  it('resends a PUT that adds or updates only when it names what it updates', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().filter((key) => key !== 'id'),
          fc.jsonValue(),
        ),
        fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant('')),
        fc.oneof(fc.integer({ min: 1 }), fc.string({ minLength: 1 })),
        (rest, noId, id) => {
          const adding = noId === undefined ? { ...rest } : { ...rest, id: noId };
          // Without an id it adds: a second send would add again.
          expect(isIdempotentCall('PUT', true, adding)).toBe(false);
          expect(mayRetry(isIdempotentCall('PUT', true, adding), 'maybe-reached')).toBe(false);
          expect(mayRetry(isIdempotentCall('PUT', true, adding), 'unreached')).toBe(true);
          // With one it updates, as any PUT.
          expect(isIdempotentCall('PUT', true, { ...rest, id })).toBe(true);
          expect(isIdempotentCall('PUT', false, adding)).toBe(true);
        },
      ),
    );
  });

  it('marks the PUTs that add without an id: sections and fields', () => {
    const adding = Object.entries(ENDPOINTS)
      .filter(([, spec]) => (spec as EndpointSpec).addsWithoutId === true)
      .map(([name]) => name)
      .sort();
    expect(adding).toEqual(['putField', 'putSection']);
  });

  it('reads Retry-After seconds', () => {
    expect(retryAfterSeconds('120')).toBe(120);
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:00 GMT')).toBeNull();
  });
});

describe('error kinds by status', () => {
  it.each([
    [401, null, 'auth'],
    [400, 'INVALID_OAUTHTOKEN', 'auth'],
    [400, 'INVALID_PARAMETER_VALUE', 'permanent'],
    [403, 'INVALID_OAUTHSCOPE', 'permanent'],
    [404, 'RESOURCE_NOT_FOUND', 'permanent'],
    [408, null, 'transient'],
    [429, 'RATE_LIMIT_EXCEEDED', 'rate'],
    [500, 'INTERNAL_SERVER_ERROR', 'transient'],
    [501, null, 'permanent'],
    [503, null, 'transient'],
  ] as const)('%i %s is %s', (status, code, kind) => {
    expect(classifyStatus(status, code)).toBe(kind);
  });
});

describe('network failures', () => {
  it('know which failures never reached the server', () => {
    expect(describeNetworkFailure(networkError('ECONNREFUSED'))).toEqual({
      errorCode: 'NETWORK_ERROR',
      reason: 'the connection was refused',
      mayHaveReached: false,
    });
    expect(describeNetworkFailure(networkError('ENOTFOUND')).mayHaveReached).toBe(false);
    // Happy eyeballs: every address refused.
    const aggregate = new TypeError('fetch failed', {
      cause: Object.assign(new AggregateError([networkError('ECONNREFUSED')]), {}),
    });
    expect(describeNetworkFailure(aggregate).mayHaveReached).toBe(false);
  });

  it('assume a reset, a closed socket, a timeout or anything unknown may have reached it', () => {
    expect(describeNetworkFailure(networkError('ECONNRESET')).mayHaveReached).toBe(true);
    expect(describeNetworkFailure(networkError('UND_ERR_SOCKET')).reason).toBe(
      'the connection was closed before the answer arrived',
    );
    expect(describeNetworkFailure(new DOMException('late', 'TimeoutError'))).toEqual({
      errorCode: 'TIMEOUT',
      reason: 'the service did not answer in time',
      mayHaveReached: true,
    });
    expect(describeNetworkFailure(new Error('???')).mayHaveReached).toBe(true);
  });
});
