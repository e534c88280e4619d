import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/main/api/client/apiError';
import {
  createApiClient,
  describeMalformedReply,
  type MalformedReplyReport,
} from '../../../../src/main/api/client/apiClient';
import { passThroughScheduler } from '../../../../src/main/api/client/passThroughScheduler';
import {
  apiError,
  entityJson,
  fakeFetch,
  fakeTokens,
  json,
  networkError,
  RECORDS,
  testClient,
  testProfile,
} from './fakes';

const RECORD = { ...RECORDS, entity_id: '7' };

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('sending', () => {
  it('sends the bearer token, the JSON body and reads the record back', async () => {
    const { client, sent } = testClient(() =>
      json(200, { entity: entityJson('7', { cf_cost: null }) }),
    );
    const record = await client.updateEntity({
      ...RECORD,
      body: { name: 'Renamed', cf_notes: 'x' },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'PATCH',
      url: 'https://api.us.test/api/v3/portal/100/projects/assets/entities/7',
      body: '{"name":"Renamed","cf_notes":"x"}',
    });
    expect(sent[0]!.headers.authorization).toBe('Bearer t1');
    expect(sent[0]!.headers['content-type']).toMatch(/^application\/json/);
    expect(record.id).toBe('7');
    expect(record.custom).toEqual({ cf_serial_number: 'SN-7', cf_cost: null });
  });

  it('sends the backup access code as form data', async () => {
    const { client, sent } = testClient(() =>
      json(202, { portal_export: { id: '9', status: 'in_progress' }, is_reused: false }),
    );
    const reply = await client.scheduleBackup({
      portal_id: '100',
      body: { access_code: 'secret code 1' },
    });
    expect(reply.portal_export.status).toBe('in_progress');
    expect(sent[0]!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(sent[0]!.body).toBe('access_code=secret+code+1');
  });

  it('goes through the scheduler with the endpoint key and a priority by kind of call', async () => {
    const { client, scheduled } = testClient(() => json(200, { entity: entityJson('7') }));
    await client.getEntity(RECORD);
    await client.trashEntity(RECORD);
    await client.getEntity(RECORD, { priority: 'visible' });
    expect(scheduled.map((s) => s.priority)).toEqual(['background', 'user', 'visible']);
    expect(scheduled[0]!.key).toBe(
      'us GET /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}/entities/{entity_id} portal=100',
    );
    expect(client.endpointKey('getEntity', RECORD)).toBe(scheduled[0]!.key);
  });

  it("uses the profile's older scheme when asked", async () => {
    const { client, sent } = testClient(() => json(200, []), { authScheme: 'legacy' });
    await client.listPortals({});
    expect(sent[0]!.headers.authorization).toBe('PMS-oauthtoken t1');
  });

  it('returns the count at /entities/20 and nothing for a 204', async () => {
    const { client, sent } = testClient((request) =>
      request.method === 'DELETE' ? json(204, null) : json(200, { count: 42 }),
    );
    await expect(client.countEntities({ ...RECORDS })).resolves.toBe(42);
    await expect(client.deleteEntity(RECORD)).resolves.toBeUndefined();
    expect(sent[0]!.url).toBe('https://api.us.test/api/v3/portal/100/projects/assets/entities/20');
  });

  it('stops at once when the caller cancels, without an ApiError', async () => {
    const controller = new AbortController();
    const { client } = testClient(() => 'hang');
    const call = client.getEntity(RECORD, { signal: controller.signal });
    controller.abort(new Error('user cancelled'));
    await expect(call).rejects.toThrow('user cancelled');
  });
});

describe('lenient parsing', () => {
  it('skips the one malformed record of a page, keeps the rest and reports it with the endpoint', async () => {
    const page = {
      entities: [
        entityJson('1'),
        { ...entityJson('2'), last_updated_time: 17 },
        entityJson('3', { surprise: { new: 'field' } }),
      ],
      page_info: { page: 1, per_page: 3, page_count: 9, has_next_page: true, extra: 1 },
    };
    const { client, malformed } = testClient(() => json(200, page));
    const reply = await client.listEntities({ ...RECORDS });
    expect(reply.items.map((item) => item.id)).toEqual(['1', '3']);
    expect(reply.received).toBe(3);
    expect(reply.pageInfo).toMatchObject({ page_count: 9, has_next_page: true });
    expect(reply.items[1]!.custom.surprise).toEqual({ new: 'field' });
    expect(reply.skipped).toEqual([
      { index: 1, id: '2', problems: [expect.stringMatching(/^last_updated_time: /)] },
    ]);
    expect(malformed).toEqual([
      {
        endpoint: {
          name: 'listEntities',
          label: 'GET /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}/entities',
        },
        url: 'https://api.us.test/api/v3/portal/100/projects/assets/entities',
        skipped: reply.skipped,
      },
    ]);
    expect(describeMalformedReply(malformed[0] as MalformedReplyReport)).toMatch(
      /^GET \/api\/v3\/portal\/\{portal_id\}\/.*\/entities \(https:\/\/api\.us\.test\/.*\): skipped 1 malformed item\(s\), kept the rest\. #1 \(id 2\): last_updated_time: /,
    );
  });

  it('refuses a reply that is not JSON, naming the endpoint', async () => {
    const { client } = testClient(
      () => new Response('<html>Gateway says hi</html>', { status: 200 }),
    );
    const error = await failure(client.getEntity(RECORD));
    expect(error).toMatchObject({
      kind: 'permanent',
      errorCode: 'MALFORMED_RESPONSE',
      status: 200,
    });
    expect(error.message).toContain(
      'GET /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}/entities/{entity_id}',
    );
    expect(error.message).toContain('not JSON: "<html>Gateway says hi</html>"');
    expect(error.message).toContain('Nothing from it was stored');
  });

  it('reads with the reader a call names (the sync reads record pages where it stores them), and refuses what it cannot read the same way', async () => {
    const page = {
      entities: [entityJson('1'), { ...entityJson('2'), last_updated_time: 17 }],
      page_info: { page: 1, per_page: 2, page_count: 2, has_next_page: false },
    };
    const { client, malformed } = testClient(() => json(200, page));
    const seen: string[] = [];
    const reply = await client.listEntities(
      { ...RECORDS },
      {
        read: async (bytes) => {
          seen.push(new TextDecoder().decode(bytes));
          return {
            ok: true,
            value: { items: [{ id: '1' }], skipped: [], received: 2, pageInfo: page.page_info },
            skipped: [{ index: 1, id: '2', problems: ['last_updated_time: expected'] }],
          };
        },
      },
    );
    expect(JSON.parse(seen[0]!)).toEqual(page);
    expect(reply.items).toEqual([{ id: '1' }]);
    expect((malformed as MalformedReplyReport[]).map((r) => r.skipped[0]!.id)).toEqual(['2']);

    const unread = testClient(() => json(200, page)).client;
    const error = await failure(
      unread.listEntities(
        { ...RECORDS },
        { read: async () => ({ ok: false, problems: ['page_info.page: missing'] }) },
      ),
    );
    expect(error).toMatchObject({ kind: 'permanent', errorCode: 'MALFORMED_RESPONSE' });
    expect(error.problems).toEqual(['page_info.page: missing']);
    expect(error.message).toContain('Nothing from it was stored');
  });

  it('refuses a list without page_info rather than guess whether more pages exist', async () => {
    const { client } = testClient(() => json(200, { entities: [entityJson('1')] }));
    const error = await failure(client.listEntities({ ...RECORDS }));
    expect(error.errorCode).toBe('MALFORMED_RESPONSE');
    expect(error.problems[0]).toMatch(/^page_info/);
  });
});

describe('tokens', () => {
  it('refreshes once for five requests refused together, and retries each once', async () => {
    const network = fakeFetch((request) =>
      request.headers.authorization === 'Bearer t1'
        ? apiError(400, 'INVALID_OAUTHTOKEN', 'Access token invalid or expired.')
        : json(200, { entity: entityJson('7') }),
    );
    const tokens = fakeTokens({ delayMs: 5 });
    // Every request is sent before any answer arrives, as under a real scheduler's concurrency.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    const client = createApiClient({
      profile: testProfile(),
      dataCenter: 'us',
      tokens: tokens.provider,
      scheduler: {
        schedule: async ({ send }) => {
          const response = await send(new AbortController().signal);
          if (++waiting === 5) release();
          await gate;
          return response;
        },
      },
      fetch: network.fetch,
    });
    const records = await Promise.all([1, 2, 3, 4, 5].map(() => client.getEntity(RECORD)));
    expect(records).toHaveLength(5);
    expect(tokens.refreshes).toEqual(['t1']);
    expect(network.sent.map((s) => s.headers.authorization).sort()).toEqual([
      ...Array(5).fill('Bearer t1'),
      ...Array(5).fill('Bearer t2'),
    ]);
  });

  it('treats a 401 like an expired token', async () => {
    const { client, tokens, sent } = testClient((_request, index) =>
      index === 0 ? apiError(401, 'INVALID_OAUTHTOKEN', 'No access token.') : json(200, []),
    );
    await client.listPortals({});
    expect(tokens.refreshes).toEqual(['t1']);
    expect(sent[1]!.headers.authorization).toBe('Bearer t2');
  });

  it('gives up with an auth error when the renewed token is refused too', async () => {
    // A third send would succeed: the client must not make it.
    const { client, tokens, sent } = testClient((_request, index) =>
      index < 2
        ? apiError(400, 'INVALID_OAUTHTOKEN', 'Access token invalid or expired.')
        : json(200, { entity: entityJson('7') }),
    );
    const error = await failure(client.getEntity(RECORD));
    expect(error).toMatchObject({ kind: 'auth', status: 400, errorCode: 'INVALID_OAUTHTOKEN' });
    expect(error.message).toMatch(/even after renewing it .* Sign in again/);
    expect(tokens.refreshes).toEqual(['t1']);
    expect(sent).toHaveLength(2);
  });

  it('fails every waiting request with an auth error when the refresh fails', async () => {
    const network = fakeFetch(() => apiError(400, 'INVALID_OAUTHTOKEN', 'expired'));
    const tokens = fakeTokens({ failRefresh: new Error('invalid_code'), delayMs: 5 });
    const client = createApiClient({
      profile: testProfile(),
      dataCenter: 'us',
      tokens: tokens.provider,
      scheduler: passThroughScheduler(),
      fetch: network.fetch,
    });
    const errors = await Promise.all([1, 2, 3].map(() => failure(client.getEntity(RECORD))));
    expect(errors.map((e) => [e.kind, e.errorCode])).toEqual(
      Array(3).fill(['auth', 'TOKEN_REFRESH_FAILED']),
    );
    expect(errors[0]!.message).toContain('could not be renewed (invalid_code). Sign in again');
    expect(tokens.refreshes).toEqual(['t1']);
  });
});

describe('retries', () => {
  it('retries a GET after 5xx with exponential backoff and full jitter', async () => {
    const { client, sent, sleeps } = testClient((_request, index) =>
      index < 2 ? apiError(500, 'INTERNAL_SERVER_ERROR', 'oops') : json(200, { count: 3 }),
    );
    await expect(client.countComments({ ...RECORD })).resolves.toBe(3);
    expect(sent).toHaveLength(3);
    // random() = 0.5 of caps 500 ms, 1000 ms.
    expect(sleeps).toEqual([250, 500]);
  });

  it('stops after a bounded number of attempts with a transient error', async () => {
    const { client, sent, sleeps } = testClient(() =>
      apiError(503, 'INTERNAL_SERVER_ERROR', 'Down for maintenance'),
    );
    const error = await failure(client.listPortals({}));
    expect(error).toMatchObject({ kind: 'transient', status: 503, attempts: 4 });
    expect(error.message).toBe(
      'The service failed to list your portals (HTTP 503: Down for maintenance; 4 attempts). Trying again later is safe.',
    );
    expect(sent).toHaveLength(4);
    expect(sleeps).toEqual([250, 500, 1000]);
  });

  it('waits at least Retry-After when a 503 gives one', async () => {
    const { client, sleeps } = testClient((_request, index) =>
      index === 0 ? apiError(503, 'X', 'busy') : json(200, []),
    );
    await client.listPortals({});
    expect(sleeps).toEqual([250]);
    const again = testClient((_request, index) =>
      index === 0
        ? json(503, { errorCode: 'X', message: 'busy' }, { 'Retry-After': '7' })
        : json(200, []),
    );
    await again.client.listPortals({});
    expect(again.sleeps).toEqual([7000]);
  });

  it('never sends a POST twice after the server answered 5xx', async () => {
    const { client, sent } = testClient(() => apiError(500, 'INTERNAL_SERVER_ERROR', 'oops'));
    const error = await failure(client.createComment({ ...RECORD, body: { content: 'hi' } }));
    expect(error.kind).toBe('transient');
    expect(error.message).toMatch(/may have made the change anyway; refresh to check/);
    expect(sent).toHaveLength(1);
  });

  it('retries a POST only when the connection was refused (it never reached the server)', async () => {
    const refused = testClient((_request, index) =>
      index === 0
        ? networkError('ECONNREFUSED')
        : json(201, { comment: { id: '5', content: 'hi' } }),
    );
    const comment = await refused.client.createComment({ ...RECORD, body: { content: 'hi' } });
    expect(comment.id).toBe('5');
    expect(refused.sent).toHaveLength(2);

    const reset = testClient(() => networkError('ECONNRESET'));
    const error = await failure(reset.client.createComment({ ...RECORD, body: { content: 'hi' } }));
    expect(error).toMatchObject({ kind: 'transient', status: null, errorCode: 'NETWORK_ERROR' });
    expect(error.message).toBe(
      'PortalDesk could not add the comment: the connection was reset (1 attempt). The request may have reached the service; refresh to check before repeating it.',
    );
    expect(reset.sent).toHaveLength(1);
  });

  it('retries GET, PUT and DELETE after a reset', async () => {
    for (const call of ['get', 'put', 'delete'] as const) {
      const { client, sent } = testClient((request, index) =>
        index === 0
          ? networkError('ECONNRESET')
          : request.method === 'DELETE'
            ? json(204, null)
            : request.method === 'PUT'
              ? json(200, { section: { id: '3', name: 'S' } })
              : json(200, { count: 1 }),
      );
      if (call === 'get') await client.countEntities({ ...RECORDS });
      if (call === 'put')
        await client.putSection({
          portal_id: '1',
          layout_id: '2',
          body: { module: 'm', id: '3', name: 'S' },
        });
      if (call === 'delete') await client.deleteEntity(RECORD);
      expect(sent, call).toHaveLength(2);
    }
  });

  it('does not send a PUT that adds (no id) again after a reset: it may have added already', async () => {
    const { client, sent } = testClient((_request, index) =>
      index === 0 ? networkError('ECONNRESET') : json(200, { section: { id: '3', name: 'S' } }),
    );
    const error = await failure(
      client.putSection({ portal_id: '1', layout_id: '2', body: { module: 'm', name: 'S' } }),
    );
    expect(error).toMatchObject({ kind: 'transient', status: null });
    expect(error.message).toContain('may have reached the service');
    expect(sent).toHaveLength(1);
  });

  it('abandons a send that takes longer than the timeout, and says so', async () => {
    const { client, sent } = testClient(() => 'hang', { timeoutMs: 20, retry: { attempts: 2 } });
    const error = await failure(client.getEntity(RECORD));
    expect(error).toMatchObject({ kind: 'transient', errorCode: 'TIMEOUT', attempts: 2 });
    expect(error.message).toContain('the service did not answer in time (2 attempts)');
    expect(sent).toHaveLength(2);
  });
});

describe('errors', () => {
  it('turns a 400 into a permanent error in the user words given', async () => {
    const { client, sent } = testClient(() =>
      apiError(400, 'INVALID_PARAMETER_VALUE', 'name is longer than 200 characters.'),
    );
    const error = await failure(
      client.updateEntity(
        { ...RECORD, body: { name: 'x'.repeat(201) } },
        { subject: "the change to 'Name'" },
      ),
    );
    expect(error).toMatchObject({
      kind: 'permanent',
      status: 400,
      errorCode: 'INVALID_PARAMETER_VALUE',
      serverMessage: 'name is longer than 200 characters.',
      endpoint: {
        name: 'updateEntity',
        label:
          'PATCH /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}/entities/{entity_id}',
      },
    });
    expect(error.message).toBe(
      "The service refused the change to 'Name': name is longer than 200 characters. Nothing was changed on the service; correct it and try again.",
    );
    expect(sent).toHaveLength(1);
  });

  it("falls back to the table's action and says what a 404 means", async () => {
    const { client } = testClient(() =>
      apiError(404, 'RESOURCE_NOT_FOUND', 'Record 7 does not exist.'),
    );
    const error = await failure(client.getEntity(RECORD));
    expect(error.message).toBe(
      'The service refused to read the record: Record 7 does not exist. It may have been deleted on the service; refresh to see what is there now.',
    );
  });

  it('reports a 429 that reaches the client as a rate error with its wait', async () => {
    const { client, sent } = testClient(() =>
      json(429, { errorCode: 'RATE_LIMIT_EXCEEDED', message: 'blocked' }, { 'Retry-After': '600' }),
    );
    const error = await failure(client.listPortals({}));
    expect(error).toMatchObject({ kind: 'rate', status: 429, retryAfterSeconds: 600 });
    expect(error.message).toBe(
      'The service is limiting calls to GET /api/v3/portals for 600 s. Nothing was changed; PortalDesk will try again after that.',
    );
    expect(sent).toHaveLength(1);
  });

  it('reads an error body that is not JSON', async () => {
    const { client } = testClient(() => new Response('Forbidden by proxy', { status: 403 }));
    const error = await failure(client.listPortals({}));
    expect(error).toMatchObject({
      kind: 'permanent',
      errorCode: 'UNKNOWN_ERROR',
      serverMessage: 'Forbidden by proxy',
    });
    expect(error.message).toContain('Sign in again and allow PortalDesk the access it asks for');
  });
});
