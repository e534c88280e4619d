/** Fakes for the client's unit tests: a profile, a scripted fetch, tokens and a scheduler. */
import type { ApiScheduler, ScheduledRequest } from '../../../../src/main/api/client/apiScheduler';
import { createApiClient, type ApiClientOptions } from '../../../../src/main/api/client/apiClient';
import type { TokenProvider } from '../../../../src/main/api/client/tokenProvider';
import { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';

export function testProfile(overrides: Partial<ServiceProfile> = {}): ServiceProfile {
  return ServiceProfile.parse({
    id: 'test',
    name: 'Test service',
    dataCenters: {
      us: { api: 'https://api.us.test', accounts: 'https://accounts.us.test' },
      eu: { api: 'https://api.eu.test/', accounts: 'https://accounts.eu.test' },
      sg: { api: 'https://api.sg.test' },
    },
    apiPrefix: '/api/v3',
    scopePrefixes: { api: 'PMS', files: 'PMSFiles' },
    commentSegment: 'record comments',
    legacyAuthScheme: 'PMS-oauthtoken',
    multiDc: true,
    ...overrides,
  });
}

export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export type FetchReply = Response | Error | 'hang';

/** A fetch answering from `reply(request, index)`; `hang` waits until the signal aborts. */
export function fakeFetch(reply: (request: SentRequest, index: number) => FetchReply) {
  const sent: SentRequest[] = [];
  const fetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request: SentRequest = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? init.body : undefined,
    };
    sent.push(request);
    const answer = reply(request, sent.length - 1);
    const signal = init.signal;
    if (answer === 'hang') {
      return new Promise((_resolve, reject) => {
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(answer);
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export const apiError = (status: number, errorCode: string, message: string) =>
  json(status, { errorCode, message, status });

/** A network failure as undici reports it: `TypeError: fetch failed` with a coded cause. */
export function networkError(code: string): Error {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error(`connect ${code}`), { code }),
  });
}

/** Tokens `t1`, `t2`, ...: each refresh mints the next one, after `delayMs`. */
export function fakeTokens(options: { failRefresh?: Error; delayMs?: number } = {}) {
  let current = 't1';
  const refreshes: string[] = [];
  const provider: TokenProvider = {
    accessToken: async () => current,
    refresh: async (rejected) => {
      refreshes.push(rejected);
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      if (options.failRefresh) throw options.failRefresh;
      current = `t${refreshes.length + 1}`;
      return current;
    },
  };
  return { provider, refreshes, current: () => current };
}

/** Sends at once, remembering what was scheduled. */
export function recordingScheduler() {
  const scheduled: Omit<ScheduledRequest, 'send'>[] = [];
  const scheduler: ApiScheduler = {
    schedule: ({ send, ...rest }) => {
      scheduled.push(rest);
      return send(rest.signal ?? new AbortController().signal);
    },
  };
  return { scheduler, scheduled };
}

/** A client on the fake fetch, with a recorded, instant sleep and a fixed "random". */
export function testClient(
  reply: (request: SentRequest, index: number) => FetchReply,
  options: Partial<ApiClientOptions> = {},
) {
  const network = fakeFetch(reply);
  const tokens = fakeTokens();
  const { scheduler, scheduled } = recordingScheduler();
  const sleeps: number[] = [];
  const malformed: unknown[] = [];
  const client = createApiClient({
    profile: testProfile(),
    dataCenter: 'us',
    tokens: tokens.provider,
    scheduler,
    fetch: network.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    onMalformed: (report) => malformed.push(report),
    ...options,
  });
  return { client, sent: network.sent, tokens, scheduled, sleeps, malformed };
}

/** A record as the emulator shows it. */
export function entityJson(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: `Record ${id}`,
    description: '',
    status: { id: '11', name: 'Open', color: '#2a64d6', is_closed_type: false },
    layout: { id: '21', name: 'Standard' },
    project: null,
    owner: { zpuid: '31', name: 'Ada Admin', email: 'ada@example.test' },
    is_closed: false,
    is_external: false,
    created_time: '2024-05-01T08:00:00.000Z',
    last_updated_time: '2024-05-02T09:30:00.000Z',
    trashed_time: null,
    cf_serial_number: `SN-${id}`,
    ...extra,
  };
}

export const RECORDS = { portal_id: '100', scope_path: 'projects', module_api_name: 'assets' };
