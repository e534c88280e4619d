import { describe, expect, it } from 'vitest';
import { readRateHeaders } from '../../../src/main/api/rateHeaders';

const now = Date.UTC(2025, 0, 6, 9, 0, 0);
const read = (headers: Record<string, string>) => readRateHeaders(new Headers(headers), now);

describe('readRateHeaders', () => {
  it('reads the spec’s headers, the window in seconds by default', () => {
    expect(
      read({
        RateLimit: '200',
        'RateLimit-Remaining': '17',
        'RateLimit-Window': '120',
        'RateLimit-Window-Unit': 'seconds',
      }),
    ).toEqual({ limit: 200, remaining: 17, windowMs: 120_000 });
    expect(read({ 'RateLimit-Window': '12' })).toEqual({ windowMs: 12_000 });
  });

  it('honours other window units and rounds a fractional window up', () => {
    expect(read({ 'RateLimit-Window': '2', 'RateLimit-Window-Unit': 'Minutes' })).toEqual({
      windowMs: 120_000,
    });
    expect(read({ 'RateLimit-Window': '1500', 'RateLimit-Window-Unit': 'ms' })).toEqual({
      windowMs: 1_500,
    });
    expect(read({ 'RateLimit-Window': '0.0015' })).toEqual({ windowMs: 2 });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(read({ 'Retry-After': '600' })).toEqual({ retryAfterMs: 600_000 });
    expect(read({ 'Retry-After': new Date(now + 90_000).toUTCString() })).toEqual({
      retryAfterMs: 90_000,
    });
    expect(read({ 'Retry-After': new Date(now - 5_000).toUTCString() })).toEqual({
      retryAfterMs: 0,
    });
  });

  it('leaves out what is missing or unreadable instead of guessing', () => {
    expect(read({})).toEqual({});
    expect(
      read({
        RateLimit: 'lots',
        'RateLimit-Remaining': '-3',
        'RateLimit-Window': '120',
        'RateLimit-Window-Unit': 'fortnights',
        'Retry-After': 'soon',
      }),
    ).toEqual({});
    expect(read({ RateLimit: '0', 'RateLimit-Window': '0' })).toEqual({});
  });
});
