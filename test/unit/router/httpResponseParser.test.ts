import { describe, expect, it } from 'vitest';
import {
  HttpParseError,
  HttpResponseParser,
  type ParsedResponse,
} from '../../../src/main/router/delivery/httpResponseParser';

const limits = { maxHeadBytes: 16 * 1024, maxBodyBytes: 64 * 1024 };

/** Feeds `text` in pieces of `size` bytes (every split point a socket could produce). */
function parse(
  text: string | Buffer,
  size = Infinity,
  options: Partial<ConstructorParameters<typeof HttpResponseParser>[0]> = {},
): ParsedResponse | null {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
  const parser = new HttpResponseParser({ ...limits, ...options });
  let result: ParsedResponse | null = null;
  for (let i = 0; i < bytes.length; i += size) {
    result = parser.push(bytes.subarray(i, Math.min(bytes.length, i + size)));
  }
  return result;
}

const body = (response: ParsedResponse | null) => response?.body.toString('utf8');

describe('reading a webhook target’s answer', () => {
  const withLength =
    'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{"thanks":true}';

  it('keeps headers named like object members as the headers they are', () => {
    const response = parse(
      'HTTP/1.1 200 OK\r\nConstructor: a\r\ntoString: b\r\n__proto__: c\r\nContent-Length: 0\r\n\r\n',
    );
    expect({ ...response?.headers }).toEqual({
      constructor: 'a',
      tostring: 'b',
      ['__proto__']: 'c',
      'content-length': '0',
    });
    expect(Object.keys(response?.headers ?? {})).toEqual([
      'constructor',
      'tostring',
      '__proto__',
      'content-length',
    ]);
  });

  it('reads status, headers and a Content-Length body, split anywhere', () => {
    for (const size of [1, 2, 7, 64, Infinity]) {
      const response = parse(withLength, size);
      expect(response?.status).toBe(200);
      expect(response?.headers['content-type']).toBe('application/json');
      expect(body(response)).toBe('{"thanks":true}');
      expect(response?.keepAlive).toBe(true);
    }
  });

  it('waits for the whole body before answering', () => {
    expect(parse(withLength.slice(0, -1))).toBeNull();
  });

  it('decodes chunked bodies with extensions and trailers, split anywhere', () => {
    const chunked =
      'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '4;name=x\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: 1\r\n\r\n';
    for (const size of [1, 3, 10, Infinity]) {
      const response = parse(chunked, size);
      expect(response?.status).toBe(201);
      expect(body(response)).toBe('Wikipedia in\r\n\r\nchunks.');
      expect(response?.keepAlive).toBe(true);
    }
  });

  it('reads a body without length to the end of the connection, which is then not reused', () => {
    const parser = new HttpResponseParser(limits);
    expect(parser.push(Buffer.from('HTTP/1.1 500 Oops\r\n\r\npartial '))).toBeNull();
    expect(parser.push(Buffer.from('answer'))).toBeNull();
    const response = parser.end();
    expect(response.status).toBe(500);
    expect(body(response)).toBe('partial answer');
    expect(response.keepAlive).toBe(false);
  });

  it('skips interim 1xx answers', () => {
    const response = parse(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n',
      5,
    );
    expect(response?.status).toBe(204);
    expect(response?.headers['x-a']).toBe('1');
    expect(body(response)).toBe('');
  });

  it('204, 304 and answers to HEAD carry no body whatever their headers say', () => {
    expect(body(parse('HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n'))).toBe('');
    const head = parse('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', Infinity, {
      headRequest: true,
    });
    expect(head?.status).toBe(200);
    expect(body(head)).toBe('');
  });

  it('joins repeated headers with ", " and lower-cases names', () => {
    const response = parse(
      'HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nRetry-After:  30 \r\nContent-Length: 0\r\n\r\n',
    );
    expect(response?.headers).toEqual({
      'set-cookie': 'a=1, b=2',
      'retry-after': '30',
      'content-length': '0',
    });
  });

  it('keeps the connection only when the answer allows it', () => {
    expect(
      parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')?.keepAlive,
    ).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n')?.keepAlive).toBe(false);
    expect(
      parse('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n')?.keepAlive,
    ).toBe(true);
    // Bytes after the answer (nothing was asked): the connection cannot be trusted.
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy')?.keepAlive).toBe(false);
  });

  it('keeps only the first maxBodyBytes of a long body but reads it all', () => {
    const long = 'x'.repeat(100);
    const response = parse(`HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n${long}`, 7, {
      maxBodyBytes: 10,
    });
    expect(body(response)).toBe('x'.repeat(10));
    expect(response?.keepAlive).toBe(true);
  });

  it('refuses what is not HTTP, with the reason', () => {
    expect(() => parse('SSH-2.0-OpenSSH\r\n\r\n')).toThrow(/invalid status line "SSH-2.0-OpenSSH"/);
    expect(() => parse('HTTP/1.1 200 OK\r\nBad Header\r\n\r\n')).toThrow(HttpParseError);
    expect(() => parse('HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n')).toThrow(
      /invalid Content-Length/,
    );
    expect(() => parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n')).toThrow(
      /invalid chunk size/,
    );
    expect(() =>
      parse(`HTTP/1.1 200 OK\r\nX-Big: ${'y'.repeat(200)}\r\n\r\n`, 16, { maxHeadBytes: 100 }),
    ).toThrow(/headers exceed 100 bytes/);
  });

  it('a connection that ends mid-answer or before it is an error', () => {
    const parser = new HttpResponseParser(limits);
    expect(() => parser.end()).toThrow('the connection closed without an answer');
    const cut = new HttpResponseParser(limits);
    cut.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab'));
    expect(cut.started).toBe(true);
    expect(() => cut.end()).toThrow('the connection closed mid-answer');
  });
});
