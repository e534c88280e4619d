import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  configuredSecrets,
  isSecretName,
  recordedSecretForms,
  REDACTED,
  redactHeaders,
  redactRecordedRequest,
  redactRecordedResponse,
  redactUrl,
  SECRET_VALUE_MIN_CHARS,
} from '../../../src/main/router/delivery/secretHeaders';
import type { TargetView } from '../../../src/shared/ipc/areas/router';

const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,20}$/);
const headerValue = fc.string({ maxLength: 40 });

describe('secret headers in what the router records', () => {
  it('names credentials by HTTP and by the words a secret header carries', () => {
    for (const name of [
      'Authorization',
      'proxy-authorization',
      'Cookie',
      'Set-Cookie',
      'X-Api-Key',
      'api_key',
      'ApiKey',
      'X-Auth-Token',
      'X-Access-Token',
      'Client-Secret',
      'X-Session-Id',
      'password',
      'X-Functions-Key',
      'Ocp-Apim-Subscription-Key',
      // Signed addresses: Azure's SAS `sig`, S3's `X-Amz-Signature`, a webhook's signature header;
      // Azure Functions' key in `code` (an OAuth code is one too).
      'sig',
      'X-Amz-Signature',
      'X-Hub-Signature-256',
      'code',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of [
      'Content-Type',
      'User-Agent',
      'X-Order',
      'X-Request-Id',
      'Keep-Alive',
      'Monkey',
      'X-Status-Code',
      'Design',
      'signal',
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it('keeps every name and every other value, and is the same when applied twice (old rows read again)', () => {
    fc.assert(
      fc.property(fc.dictionary(headerName, headerValue), (headers) => {
        const once = redactHeaders(headers);
        expect(Object.keys(once)).toEqual(Object.keys(headers));
        for (const [name, value] of Object.entries(headers)) {
          if (isSecretName(name)) expect(once[name]).toMatch(/\[redacted\]$/);
          else expect(once[name]).toBe(value);
        }
        expect(redactHeaders(once)).toEqual(once);
      }),
    );
  });

  it("keeps an Authorization's scheme, not its credentials", () => {
    expect(redactHeaders({ authorization: 'Bearer abc.def' })).toEqual({
      authorization: `Bearer ${REDACTED}`,
    });
    expect(redactHeaders({ authorization: 'abc' })).toEqual({ authorization: REDACTED });
  });

  it('leaves an address without secret parameters exactly as it was, and redacts the others', () => {
    const plain = fc
      .dictionary(
        headerName.filter((name) => !isSecretName(name)),
        headerValue,
      )
      .map((query) => {
        const url = new URL('https://hooks.example/in');
        for (const [name, value] of Object.entries(query)) url.searchParams.append(name, value);
        return url.toString();
      });
    fc.assert(
      fc.property(plain, (url) => {
        expect(redactUrl(url)).toBe(url);
      }),
    );
    expect(redactUrl('https://h.example/in?a=1&token=x&token=y&b=2')).toBe(
      'https://h.example/in?a=1&token=%5Bredacted%5D&token=%5Bredacted%5D&b=2',
    );
    expect(redactUrl('sandbox://request_bin/1')).toBe('sandbox://request_bin/1');
  });

  it("replaces a secret header's value wherever else the request or its answer holds it, in any encoding", () => {
    const secret = fc.string({
      unit: fc.constantFrom('a', 'Z', '7', ' ', '&', '=', '"', '\\', '/', '+', '%', 'é', '?', '#'),
      minLength: SECRET_VALUE_MIN_CHARS,
      maxLength: 24,
    });
    const plainName = headerName.filter((name) => !isSecretName(name));
    fc.assert(
      fc.property(secret, plainName, fc.boolean(), (value, name, bearer) => {
        const url = new URL('https://hooks.example/in?v=1');
        url.searchParams.append(name, value);
        const request = {
          method: 'POST',
          url: `${url.toString()}&raw=${encodeURIComponent(value)}`,
          headers: {
            authorization: bearer ? `Bearer ${value}` : value,
            [`x-${name.toLowerCase()}`]: `sig ${value}`,
            'x-order': 'A-1',
          },
          body: JSON.stringify({ data: { token: value, order: 'A-1' } }),
        };
        const forms = recordedSecretForms(request);
        const shown = redactRecordedRequest(request, forms);
        const answer = redactRecordedResponse(
          { status: 200, headers: { echo: value }, body: JSON.stringify(request) },
          forms,
        );
        const holds = (text: string) => text.includes(value);
        const params = [...new URL(shown.url).searchParams.values()];
        expect(params.some(holds)).toBe(false);
        expect(params).toContain('1');
        expect(Object.values(shown.headers).some(holds)).toBe(false);
        expect(shown.headers['x-order']).toBe('A-1');
        const body = JSON.parse(shown.body) as { data: { token: string; order: string } };
        expect(holds(body.data.token)).toBe(false);
        expect(body.data.order).toBe('A-1');
        expect(holds(answer.headers.echo!)).toBe(false);
        const echoed = JSON.parse(answer.body) as typeof request;
        expect(holds(echoed.url) || holds(decodeURIComponent(echoed.url))).toBe(false);
        expect(holds(echoed.body)).toBe(false);
        // Applied again (an old row read again), nothing changes.
        expect(redactRecordedRequest(shown, forms)).toEqual(shown);
      }),
    );
  });

  it('redacts the user info of an address, and leaves short values to their names', () => {
    expect(redactUrl('https://user:pa55word@hooks.example/in?a=1')).toBe(
      'https://%5Bredacted%5D@hooks.example/in?a=1',
    );
    const request = {
      url: 'https://tok-USERINFO-9@hooks.example/in?id=1',
      headers: { 'x-api-key': '1', 'x-order': '1' },
      body: '{"echo":"tok-USERINFO-9","n":1}',
    };
    expect(redactRecordedRequest(request)).toEqual({
      url: 'https://%5Bredacted%5D@hooks.example/in?id=1',
      headers: { 'x-api-key': REDACTED, 'x-order': '1' },
      body: `{"echo":"${REDACTED}","n":1}`,
    });
  });

  it("knows a target's configured secrets, but not those its templates fill from an event", () => {
    const target = {
      url: 'https://u:pw-USERINFO-1@hooks.example/in?code=abc',
      headers: [
        { name: 'Authorization', value: 'Bearer tok-CONFIGURED-1' },
        { name: 'X-Auth-Token', value: '{{creds.token}}' },
        { name: 'X-Order', value: 'not-a-secret-1' },
      ],
      query: [{ name: 'api_key', value: 'key-CONFIGURED-2' }],
    } as unknown as TargetView;
    expect(configuredSecrets(target).sort()).toEqual(
      [
        // `code` is Azure Functions' key in an address.
        'abc',
        'Bearer tok-CONFIGURED-1',
        'key-CONFIGURED-2',
        'pw-USERINFO-1',
        'tok-CONFIGURED-1',
        'u',
      ].sort(),
    );
  });
});
