import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedHostHeaders, isAllowedHostHeader } from '@portaldesk/portal-api/http/loopbackHost';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Random case, as a browser may keep what the page wrote. */
const anyCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

const name = fc.oneof(
  fc.constantFrom('127.0.0.1', 'localhost', '[::1]').chain(anyCase),
  fc.domain(),
  fc.ipV4(),
  fc.constantFrom('127.0.0.1.evil.example', 'localhost.evil.example', '0.0.0.0', '[::]'),
);

describe('the Host check of loopback servers', () => {
  it('agrees with the URL parser: a loopback name with the server port, nothing else', () => {
    const port = fc.integer({ min: 1, max: 65535 });
    fc.assert(
      fc.property(name, port, fc.option(port), (host, serverPort, otherPort) => {
        const asked = otherPort ?? serverPort;
        const header = `${host}:${asked}`;
        const url = new URL(`http://${header}/`);
        const expected = LOOPBACK.has(url.hostname) && asked === serverPort;
        expect(isAllowedHostHeader(header, serverPort)).toBe(expected);
      }),
    );
  });

  it('refuses a rebinding page, another port, and a request without Host', () => {
    expect(isAllowedHostHeader('evil.example:8080', 8080)).toBe(false);
    expect(isAllowedHostHeader('localhost:8081', 8080)).toBe(false);
    expect(isAllowedHostHeader('127.0.0.1', 8080)).toBe(false);
    expect(isAllowedHostHeader(undefined, 8080)).toBe(false);
    expect(isAllowedHostHeader('LOCALHOST:8080', 8080)).toBe(true);
  });

  it('takes the bare name on port 80, where browsers leave the port out', () => {
    expect(isAllowedHostHeader('localhost', 80)).toBe(true);
    expect(isAllowedHostHeader('localhost:80', 80)).toBe(true);
  });

  it('adds names it is told to answer to, IPv6 addresses bracketed', () => {
    expect(allowedHostHeaders(9, ['Emulator.test', '::'])).toEqual([
      '127.0.0.1:9',
      'localhost:9',
      '[::1]:9',
      'emulator.test:9',
      '[::]:9',
    ]);
    expect(isAllowedHostHeader('emulator.test:9', 9, ['emulator.test'])).toBe(true);
    expect(isAllowedHostHeader('emulator.test:9', 9)).toBe(false);
  });
});
