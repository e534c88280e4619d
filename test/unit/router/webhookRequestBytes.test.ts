import { describe, expect, it } from 'vitest';
import { webhookRequestBytes } from '../../../src/main/router/delivery/webhookRequestBytes';
import { TargetInput } from '../../../src/shared/ipc/areas/router';

const text = (bytes: string | Buffer) =>
  typeof bytes === 'string' ? bytes : bytes.toString('latin1');

describe('the bytes of a webhook request', () => {
  it('request line, the target headers, Host, keep-alive and the body length in bytes', () => {
    const { origin, bytes } = webhookRequestBytes({
      method: 'POST',
      url: 'http://127.0.0.1:8080/hooks/in?x=1&y=%C3%A9',
      headers: { 'content-type': 'application/json', 'x-order': 'A-1' },
      body: '{"name":"é"}',
    });
    expect(origin).toEqual({ secure: false, host: '127.0.0.1', port: 8080 });
    expect(bytes).toBe(
      'POST /hooks/in?x=1&y=%C3%A9 HTTP/1.1\r\ncontent-type: application/json\r\nx-order: A-1\r\n' +
        'host: 127.0.0.1:8080\r\nconnection: keep-alive\r\ncontent-length: 13\r\n\r\n{"name":"é"}',
    );
  });

  it('default ports, IPv6 hosts and GET without a body', () => {
    const secure = webhookRequestBytes({
      method: 'GET',
      url: 'https://hooks.example/in',
      headers: {},
      body: null,
    });
    expect(secure.origin).toEqual({ secure: true, host: 'hooks.example', port: 443 });
    expect(text(secure.bytes)).toBe(
      'GET /in HTTP/1.1\r\nhost: hooks.example\r\nconnection: keep-alive\r\n\r\n',
    );
    const v6 = webhookRequestBytes({
      method: 'GET',
      url: 'http://[::1]:9/',
      headers: {},
      body: null,
    });
    expect(v6.origin).toEqual({ secure: false, host: '::1', port: 9 });
    expect(text(v6.bytes)).toContain('host: [::1]:9\r\n');
  });

  it('the framing is ours: a header cannot set Content-Length or Transfer-Encoding', () => {
    const { bytes } = webhookRequestBytes({
      method: 'PUT',
      url: 'http://127.0.0.1:1/',
      headers: { 'content-length': '999', 'transfer-encoding': 'chunked', host: 'other.example' },
      body: 'abc',
    });
    expect(text(bytes)).toBe(
      'PUT / HTTP/1.1\r\nhost: other.example\r\nconnection: keep-alive\r\ncontent-length: 3\r\n\r\nabc',
    );
  });

  it('a Latin-1 header value goes as Latin-1 bytes, the body as UTF-8', () => {
    const { bytes } = webhookRequestBytes({
      method: 'POST',
      url: 'http://127.0.0.1:1/',
      headers: { 'x-name': 'Müller' },
      body: 'ü',
    });
    expect(Buffer.isBuffer(bytes)).toBe(true);
    const buffer = bytes as Buffer;
    expect(buffer.includes(Buffer.from('x-name: M\xfcller\r\n', 'latin1'))).toBe(true);
    expect(buffer.subarray(-2)).toEqual(Buffer.from('ü', 'utf8'));
  });

  it('refuses a header value with a line break (a template filled from event data)', () => {
    expect(() =>
      webhookRequestBytes({
        method: 'POST',
        url: 'http://127.0.0.1:1/',
        headers: { 'x-order': 'A-1\r\nx-injected: yes' },
        body: '{}',
      }),
    ).toThrow('the value of header x-order has characters HTTP does not allow');
    expect(() =>
      webhookRequestBytes({ method: 'GET', url: 'ftp://x/', headers: {}, body: null }),
    ).toThrow('ftp: URLs cannot be called');
  });

  it('refuses a URL with a user name or password instead of dropping them unsent', () => {
    // The credentials would not reach the target (no Authorization is made of them), and the
    // attempt's recorded URL would show the password in the event log.
    for (const url of ['https://ann:s3cret@hooks.example/in', 'http://ann@127.0.0.1:1/']) {
      expect(() => webhookRequestBytes({ method: 'POST', url, headers: {}, body: '{}' })).toThrow(
        'a URL with a user name or password is not called',
      );
    }
  });
});

describe('a webhook target', () => {
  const webhook = (url: string) => TargetInput.safeParse({ name: 'hook', kind: 'webhook', url });

  it('is refused with credentials in its URL, naming the url field and the Authorization header', () => {
    for (const url of ['https://ann:s3cret@hooks.example/in', 'https://:s3cret@hooks.example/']) {
      const parsed = webhook(url);
      expect(parsed.success).toBe(false);
      const issue = parsed.error?.issues[0];
      expect(issue?.path).toEqual(['url']);
      expect(issue?.message).toMatch(/user name or password.*Authorization header/);
    }
    expect(webhook('https://hooks.example/in?user=ann').success).toBe(true);
  });
});

describe("a target's headers", () => {
  const withHeader = (name: string, value: string) =>
    TargetInput.safeParse({
      name: 'hook',
      kind: 'webhook',
      url: 'https://hooks.example/in',
      headers: [{ name, value }],
    });

  it('are refused at saving when HTTP cannot carry them, instead of failing every delivery', () => {
    for (const [name, value] of [
      ['X Order', 'A-1'],
      ['X-Order\r\nX-Injected', 'yes'],
      ['X-Order:', 'A-1'],
      ['X-Order', 'A-1\r\nX-Injected: yes'],
      ['X-Order', 'A\u0000'],
      ['X-Price', '10 €'],
    ] as const) {
      const parsed = withHeader(name, value);
      expect(parsed.success, JSON.stringify([name, value])).toBe(false);
      expect(parsed.error?.issues[0]?.path.slice(0, 1)).toEqual(['headers']);
      // What the form refuses, the webhook client would have refused at every attempt.
      expect(() =>
        webhookRequestBytes({
          method: 'POST',
          url: 'https://hooks.example/in',
          headers: { [name.toLowerCase()]: value },
          body: '{}',
        }),
      ).toThrow();
    }
  });

  it('are refused at saving when two share a name, whatever its case (the last replaced the first)', () => {
    const parsed = TargetInput.safeParse({
      name: 'hook',
      kind: 'webhook',
      url: 'https://hooks.example/in',
      headers: [
        { name: 'X-Tag', value: 'a' },
        { name: 'X-Other', value: 'b' },
        { name: 'x-tag', value: 'c' },
      ],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        ['headers', 2, 'name'],
        'the header x-tag is named twice (header names ignore case): keep one',
      ],
    ]);
  });

  it('may hold templates, tabs and Latin-1 text', () => {
    for (const [name, value] of [
      ['X-Order', '{{order.id}}'],
      ["X-Odd!#$%&'*+.^_`|~", 'a\tb'],
      ['X-Name', 'Müller'],
    ] as const) {
      expect(withHeader(name, value).success, name).toBe(true);
    }
  });
});
