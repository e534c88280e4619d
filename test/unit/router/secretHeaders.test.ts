import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isSecretName,
  REDACTED,
  redactHeaders,
  redactUrl,
} from '../../../src/main/router/delivery/secretHeaders';

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
});
