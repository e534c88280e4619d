import { describe, expect, it } from 'vitest';
import { classifyStatus } from '../../../../src/main/api/client/apiError';
import { describeNetworkFailure } from '../../../../src/main/api/client/networkFailure';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
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
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expect(mayRetry(method, 'answered')).toBe(true);
      expect(mayRetry(method, 'maybe-reached')).toBe(true);
    }
    for (const method of ['POST', 'PATCH'] as const) {
      expect(mayRetry(method, 'answered')).toBe(false);
      expect(mayRetry(method, 'maybe-reached')).toBe(false);
      expect(mayRetry(method, 'unreached')).toBe(true);
    }
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
