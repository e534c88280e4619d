import { describe, expect, it } from 'vitest';
import { parseEmulatorArgs } from '@portaldesk/emulator/cliArgs';
import { createClock } from '@portaldesk/emulator/clock';
import { resolveConfig } from '@portaldesk/emulator/config';
import { FaultInjector, FaultRule } from '@portaldesk/emulator/faults';
import { ApiError } from '@portaldesk/emulator/http/apiError';
import { Router } from '@portaldesk/emulator/http/router';
import { missingScope, parseScopeList, scopeCovers } from '@portaldesk/emulator/http/scopes';
import { tokenFromHeader } from '@portaldesk/emulator/http/authenticate';
import { DEFAULT_RATE_LIMIT, RateLimiter } from '@portaldesk/emulator/limits/rateLimiter';

function manualClock(scale = 1) {
  let real = 1_000_000;
  const clock = createClock(scale, () => real);
  return { clock, passReal: (ms: number) => (real += ms) };
}

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('router', () => {
  const router = new Router<{ method: 'GET' | 'POST' | 'PATCH'; template: string; name: string }>();
  router.add({ method: 'GET', template: '/p/{portal_id}/x/{module}/entities', name: 'list' });
  router.add({
    method: 'GET',
    template: '/p/{portal_id}/x/{module}/entities/{entity_id}',
    name: 'get',
  });
  router.add({
    method: 'PATCH',
    template: '/p/{portal_id}/x/{module}/entities/{entity_id}',
    name: 'patch',
  });
  router.add({ method: 'GET', template: '/p/{portal_id}/x/{module}/entities/20', name: 'count' });
  router.add({
    method: 'GET',
    template: '/p/{portal_id}/x/{module}/entity/{entity_id}/record comments',
    name: 'comments',
  });

  it('extracts parameters, and a literal segment beats a parameter (the count at /entities/20)', () => {
    expect(router.match('GET', '/p/1/x/assets/entities/77')).toMatchObject({
      route: { name: 'get' },
      params: { portal_id: '1', module: 'assets', entity_id: '77' },
    });
    expect(router.match('GET', '/p/1/x/assets/entities/20').route.name).toBe('count');
    expect(router.match('PATCH', '/p/1/x/assets/entities/20').route.name).toBe('patch');
  });

  it('matches the comment segment with a space however it was encoded', () => {
    expect(router.match('GET', '/p/1/x/a/entity/5/record%20comments').route.name).toBe('comments');
  });

  it('answers URL_RULE_NOT_CONFIGURED for unknown paths and trailing slashes', () => {
    for (const path of ['/p/1/x', '/p/1/x/a/entities/', '/nothing', '/p/1/x/a/entities/5/extra']) {
      expect(thrown(() => router.match('GET', path)).errorCode).toBe('URL_RULE_NOT_CONFIGURED');
    }
  });

  it('answers INVALID_METHOD (405) with Allow for a known path and another method', () => {
    const error = thrown(() => router.match('DELETE', '/p/1/x/a/entities/5'));
    expect(error).toMatchObject({ status: 405, errorCode: 'INVALID_METHOD' });
    expect(error.headers.Allow).toBe('GET, PATCH');
  });

  it('refuses a route registered twice', () => {
    expect(() =>
      router.add({ method: 'GET', template: '/p/{portal_id}/x/{module}/entities', name: 'x' }),
    ).toThrow(/twice/);
  });
});

describe('rate limiter', () => {
  it('allows 200 calls per window per endpoint, blocks the 201st for 10 minutes, then reopens', () => {
    const { clock, passReal } = manualClock();
    const limiter = new RateLimiter(clock, { ...DEFAULT_RATE_LIMIT, enabled: true });
    for (let i = 1; i <= 200; i++) {
      const verdict = limiter.check('GET /a');
      expect(verdict.allowed).toBe(true);
      expect(verdict.headers['RateLimit-Remaining']).toBe(String(200 - i));
    }
    const blocked = limiter.check('GET /a');
    expect(blocked.allowed).toBe(false);
    expect(blocked.headers['Retry-After']).toBe('600');
    // Only that endpoint is blocked.
    expect(limiter.check('GET /b').allowed).toBe(true);
    passReal(9 * 60_000);
    const later = limiter.check('GET /a');
    expect(later.allowed).toBe(false);
    expect(later.headers['Retry-After']).toBe('60');
    expect(limiter.blocked()).toEqual([{ key: 'GET /a', retryAfterSeconds: 60 }]);
    passReal(60_000);
    expect(limiter.check('GET /a')).toMatchObject({
      allowed: true,
      headers: { 'RateLimit-Remaining': '199' },
    });
    expect(limiter.throttled).toBe(2);
  });

  it('opens a fresh window after 2 minutes', () => {
    const { clock, passReal } = manualClock();
    const limiter = new RateLimiter(clock, { ...DEFAULT_RATE_LIMIT, enabled: true });
    for (let i = 0; i < 200; i++) limiter.check('k');
    passReal(120_000);
    expect(limiter.check('k')).toMatchObject({
      allowed: true,
      headers: { 'RateLimit-Remaining': '199' },
    });
  });

  it('reports windows and waits in real seconds under --time-scale', () => {
    const { clock, passReal } = manualClock(60);
    const limiter = new RateLimiter(clock, { ...DEFAULT_RATE_LIMIT, enabled: true });
    const first = limiter.check('k');
    expect(first.headers).toMatchObject({
      RateLimit: '200',
      'RateLimit-Window': '2',
      'RateLimit-Window-Unit': 'seconds',
    });
    for (let i = 0; i < 200; i++) limiter.check('k');
    expect(limiter.check('k').headers['Retry-After']).toBe('10');
    passReal(10_000);
    expect(limiter.check('k').allowed).toBe(true);
  });

  it('never refuses when turned off, and still sends the headers', () => {
    const { clock } = manualClock();
    const limiter = new RateLimiter(clock, { ...DEFAULT_RATE_LIMIT, enabled: false });
    for (let i = 0; i < 500; i++) expect(limiter.check('k').allowed).toBe(true);
    expect(limiter.check('k').headers.RateLimit).toBe('200');
  });
});

describe('clock', () => {
  it('runs N times faster, jumps forward on request, and converts to real seconds', () => {
    const { clock, passReal } = manualClock(10);
    const start = clock.now();
    passReal(1000);
    expect(clock.now() - start).toBe(10_000);
    clock.advance(5000);
    expect(clock.now() - start).toBe(15_000);
    expect(clock.toRealSeconds(3_600_000)).toBe(360);
    expect(() => clock.advance(-1)).toThrow();
    expect(() => createClock(0)).toThrow(/positive/);
  });
});

describe('scopes and tokens', () => {
  it('lets ALL cover every operation of its scope name only', () => {
    expect(scopeCovers('PMS.portals.ALL', 'PMS.portals.READ')).toBe(true);
    expect(scopeCovers('PMS.portals.READ', 'PMS.portals.READ')).toBe(true);
    expect(scopeCovers('PMS.portals.READ', 'PMS.portals.CREATE')).toBe(false);
    expect(scopeCovers('PMS.projects.ALL', 'PMS.portals.READ')).toBe(false);
    expect(missingScope(['PMS.portals.READ'], ['PMS.portals.READ', 'PMSFiles.files.READ'])).toBe(
      'PMSFiles.files.READ',
    );
  });

  it('parses comma-separated scope lists and names the invalid ones', () => {
    expect(parseScopeList('PMS.portals.READ, PMS.tasks.ALL')).toEqual({
      scopes: ['PMS.portals.READ', 'PMS.tasks.ALL'],
      invalid: [],
    });
    expect(parseScopeList('PMS.portals.READ,portals,PMS.x.WRITE').invalid).toEqual([
      'portals',
      'PMS.x.WRITE',
    ]);
  });

  it('reads Bearer and the older vendor scheme', () => {
    expect(tokenFromHeader('Bearer 1000.abc')).toBe('1000.abc');
    expect(tokenFromHeader('PMS-oauthtoken 1000.abc')).toBe('1000.abc');
    expect(tokenFromHeader('Basic abc')).toBeUndefined();
    expect(tokenFromHeader('Acme-oauthtoken 1000.abc')).toBe('1000.abc');
    expect(tokenFromHeader('-oauthtoken 1000.abc')).toBeUndefined();
    expect(tokenFromHeader(undefined)).toBeUndefined();
  });
});

describe('faults', () => {
  it('applies matching rules only, with their latency', () => {
    const faults = new FaultInjector(() => 0.5);
    faults.set([
      { path: '/entities', error500: 0.6, error429: 0, reset: 0, dropAnswer: 0, latencyMs: 5 },
      {
        path: '/portals',
        error500: 0,
        error429: 0.4,
        reset: 0,
        dropAnswer: 0,
        latencyMs: 0,
        method: 'POST',
      },
    ]);
    expect(faults.decide('GET', '/api/v3/portal/1/projects/a/entities')).toEqual({
      kind: 'error500',
      latencyMs: 5,
    });
    expect(faults.decide('GET', '/api/v3/portals')).toEqual({ kind: 'none', latencyMs: 0 });
    expect(faults.decide('POST', '/api/v3/portals')).toEqual({ kind: 'none', latencyMs: 0 });
  });

  it('drops the answer of a request it lets run', () => {
    const faults = new FaultInjector(() => 0.5);
    faults.set([FaultRule.parse({ path: '/entities/\\d+$', method: 'PATCH', dropAnswer: 0.6 })]);
    expect(faults.decide('PATCH', '/api/v3/portal/1/projects/a/entities/7')).toEqual({
      kind: 'dropAnswer',
      latencyMs: 0,
    });
    expect(faults.decide('GET', '/api/v3/portal/1/projects/a/entities/7').kind).toBe('none');
  });
});

describe('command line', () => {
  it('parses every option', () => {
    const cli = parseEmulatorArgs([
      '--port',
      '4100',
      '--dcs',
      'us,eu',
      '--records',
      '10',
      '--seed',
      '3',
      '--time-scale',
      '60',
      '--unscaled-token-lifetime',
      '--auto-approve',
      '--multi-dc',
      '--rate-limit',
      '50/60',
      '--block',
      '30',
      '--allow-host',
      'emulator.test, proxy.test',
      '--json',
    ]);
    expect(cli.json).toBe(true);
    expect(cli.options).toMatchObject({
      port: 4100,
      dcs: ['us', 'eu'],
      records: 10,
      seed: 3,
      timeScale: 60,
      unscaledTokenLifetime: true,
      autoApprove: true,
      multiDc: true,
      rateLimit: { calls: 50, windowMs: 60_000, blockMs: 30_000 },
      allowedHosts: ['emulator.test', 'proxy.test'],
    });
  });

  it('refuses malformed values with the option named', () => {
    expect(() => parseEmulatorArgs(['--rate-limit', '200'])).toThrow(/--rate-limit/);
    expect(() => parseEmulatorArgs(['--records', '-1'])).toThrow(/--records/);
    expect(() => parseEmulatorArgs(['--time-scale', '0'])).toThrow(/--time-scale/);
    expect(() => parseEmulatorArgs(['--nope'])).toThrow();
  });

  it('checks data centers', () => {
    const secret = () => 's';
    expect(() => resolveConfig({ dcs: ['mars'] }, secret)).toThrow(/Unknown data center "mars"/);
    expect(() => resolveConfig({ dcs: ['us', 'us'] }, secret)).toThrow(/twice/);
    expect(() => resolveConfig({ dcs: ['uae'] }, secret)).toThrow(/accounts server/);
    expect(resolveConfig({ dcs: ['US', 'sg'] }, secret).dcs).toEqual(['us', 'sg']);
  });
});
