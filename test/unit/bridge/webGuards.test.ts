import { describe, expect, it } from 'vitest';
import { bearerToken, isAllowedOrigin, secretMatches } from '../../../src/main/bridge/webGuards';
import { secretFromProtocols } from '../../../src/shared/ipc/webProtocol';

describe('web mode guards', () => {
  it('accept a missing Origin (non-browser clients) or exactly ours', () => {
    expect(isAllowedOrigin(undefined, 5000)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:5000', 5000)).toBe(true);
    for (const origin of [
      'null',
      'https://127.0.0.1:5000',
      'http://127.0.0.1:5001',
      'http://a.b',
    ]) {
      expect(isAllowedOrigin(origin, 5000)).toBe(false);
    }
  });

  it('compare secrets exactly', () => {
    expect(secretMatches('abc', 'abc')).toBe(true);
    expect(secretMatches('abd', 'abc')).toBe(false);
    expect(secretMatches('abcd', 'abc')).toBe(false);
    expect(secretMatches('', '')).toBe(false);
    expect(secretMatches(undefined, 'abc')).toBe(false);
  });

  it('read the bearer token and the secret subprotocol', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(secretFromProtocols(['portaldesk.v1', 'secret.f00'])).toBe('f00');
    expect(secretFromProtocols(['portaldesk.v1'])).toBeUndefined();
  });
});
