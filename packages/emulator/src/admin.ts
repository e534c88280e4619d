/**
 * The admin surface under /__emulator/, for tests and scripts: statistics, the clock, fault
 * injection and a reset. Every route needs the admin secret printed at start (header
 * X-Emulator-Admin). The Self Client grant is in accounts/, a record change made as another member
 * in api/recordChange.ts.
 */
import { z } from 'zod';
import { FaultRule } from './faults';
import { apiErrors } from './http/apiError';
import type { ApiRequest, Route } from './http/types';
import { reseedDatabase } from './model/seed';

function parseBody<T>(schema: z.ZodType<T>, request: ApiRequest): T {
  const parsed = schema.safeParse(request.json() ?? {});
  if (!parsed.success) {
    throw apiErrors.invalidParameter(
      parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
        .join('; '),
    );
  }
  return parsed.data;
}

const ClockAdvance = z
  .object({
    ms: z.number().int().nonnegative().optional(),
    seconds: z.number().nonnegative().optional(),
  })
  .strict()
  .refine((value) => (value.ms === undefined) !== (value.seconds === undefined), {
    message: 'give either ms or seconds',
  });

export const adminRoutes: Route[] = [
  {
    method: 'GET',
    template: '/__emulator/stats',
    kind: 'admin',
    handle: (_request, state) => {
      const count = (table: string) =>
        (state.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      return {
        body: {
          requests: {
            total: state.stats.total,
            per_endpoint: Object.fromEntries(state.stats.perEndpoint),
          },
          writes_applied: Object.fromEntries(state.stats.writesApplied),
          throttled: state.rate.throttled,
          blocked: state.rate.blocked(),
          tokens_issued: {
            grant_codes: count('oauth_grants'),
            refresh_tokens: count('oauth_refresh_tokens'),
            access_tokens: count('oauth_access_tokens'),
          },
          clock: { now: state.nowIso(), scale: state.clock.scale },
          faults: state.faults.list(),
        },
      };
    },
  },
  {
    method: 'POST',
    template: '/__emulator/clock/advance',
    kind: 'admin',
    handle: (request, state) => {
      const { ms, seconds } = parseBody(ClockAdvance, request);
      state.clock.advance(ms ?? (seconds ?? 0) * 1000);
      return { body: { now: state.nowIso() } };
    },
  },
  {
    method: 'GET',
    template: '/__emulator/faults',
    kind: 'admin',
    handle: (_request, state) => ({ body: { faults: state.faults.list() } }),
  },
  {
    method: 'POST',
    template: '/__emulator/faults',
    kind: 'admin',
    handle: (request, state) => {
      const { faults } = parseBody(z.object({ faults: z.array(FaultRule) }).strict(), request);
      for (const fault of faults) {
        try {
          new RegExp(fault.path);
        } catch {
          throw apiErrors.invalidParameter(`faults: "${fault.path}" is not a regular expression.`);
        }
      }
      state.faults.set(faults);
      return { body: { faults: state.faults.list() } };
    },
  },
  {
    method: 'POST',
    template: '/__emulator/reset',
    kind: 'admin',
    handle: (_request, state) => {
      state.rate.reset();
      state.stats.reset();
      state.faults.set([]);
      reseedDatabase(state);
      return { body: { reset: true } };
    },
  },
];
