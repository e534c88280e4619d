import { dictionary } from '@portaldesk/portal-api/json/dictionary';
import { HTTP_HEADER_NAME } from '../../../shared/ipc/areas/router';

/** What a target answered, as far as a webhook delivery records it. */
export interface ParsedResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The body's first `maxBodyBytes` bytes (the rest is read and dropped). */
  body: Buffer;
  /** Whether the connection may carry the next request (HTTP/1.1 keep-alive, framed body). */
  keepAlive: boolean;
}

export class HttpParseError extends Error {
  override name = 'HttpParseError';
}

type State = 'head' | 'length' | 'chunkSize' | 'chunkData' | 'chunkEnd' | 'trailers' | 'close';

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/;
/** RFC 9110 token characters: what a header name may hold (in a request too). */
export const HEADER_NAME = HTTP_HEADER_NAME;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,15})[ \t]*(?:;.*)?$/;

/**
 * An HTTP/1.x response read byte by byte as it arrives (RFC 9112): status line and headers, then
 * a body framed by Content-Length, chunked transfer coding, or the connection's end. Interim 1xx
 * answers are skipped. Pure: the webhook client feeds it what the socket reads.
 */
export class HttpResponseParser {
  private state: State = 'head';
  private buffered: Buffer | null = null;
  private received = 0;
  private headBytes = 0;
  private status = 0;
  private headers: Record<string, string> = {};
  private keepAlive = true;
  private remaining = 0;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private done: ParsedResponse | null = null;

  constructor(
    private readonly options: {
      maxHeadBytes: number;
      maxBodyBytes: number;
      /** The request was HEAD: the answer has no body whatever its headers say. */
      headRequest?: boolean;
    },
  ) {}

  /** True once any byte of an answer arrived (a failure after it "broke off"). */
  get started(): boolean {
    return this.received > 0;
  }

  /**
   * Feeds bytes read from the connection: the response once complete, else null. Bytes past the
   * response (nothing was asked for them) make the connection unfit for reuse.
   */
  push(chunk: Buffer): ParsedResponse | null {
    if (this.done) {
      if (chunk.length > 0) this.done.keepAlive = false;
      return this.done;
    }
    this.received += chunk.length;
    let data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    this.buffered = null;
    while (data.length > 0 && !this.done) {
      data = this.step(data);
      if (this.buffered) break;
    }
    if (this.done && data.length > 0) (this.done as ParsedResponse).keepAlive = false;
    return this.done;
  }

  /** The connection ended: the response if its body runs to the end, else an error. */
  end(): ParsedResponse {
    if (this.done) return this.done;
    if (this.state === 'close') return this.finish();
    throw new HttpParseError(
      this.started ? 'the connection closed mid-answer' : 'the connection closed without an answer',
    );
  }

  /** Consumes what it can of `data`; returns the rest (or buffers it when a line is incomplete). */
  private step(data: Buffer): Buffer {
    switch (this.state) {
      case 'head':
        return this.readHead(data);
      case 'length': {
        const take = Math.min(this.remaining, data.length);
        this.keep(data.subarray(0, take));
        this.remaining -= take;
        if (this.remaining === 0) this.finish();
        return data.subarray(take);
      }
      case 'chunkSize': {
        const line = this.line(data);
        if (!line) return Buffer.alloc(0);
        const match = CHUNK_SIZE.exec(line.text);
        if (!match) throw new HttpParseError(`invalid chunk size "${line.text.slice(0, 40)}"`);
        this.remaining = parseInt(match[1] as string, 16);
        this.state = this.remaining === 0 ? 'trailers' : 'chunkData';
        return line.rest;
      }
      case 'chunkData': {
        const take = Math.min(this.remaining, data.length);
        this.keep(data.subarray(0, take));
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'chunkEnd';
        return data.subarray(take);
      }
      case 'chunkEnd': {
        const line = this.line(data);
        if (!line) return Buffer.alloc(0);
        if (line.text !== '') throw new HttpParseError('a chunk does not end where its size says');
        this.state = 'chunkSize';
        return line.rest;
      }
      case 'trailers': {
        const line = this.line(data);
        if (!line) return Buffer.alloc(0);
        if (line.text === '') this.finish();
        return line.rest;
      }
      case 'close':
        this.keep(data);
        return Buffer.alloc(0);
    }
  }

  /** One line (CRLF or LF), or null after buffering an incomplete one. */
  private line(data: Buffer): { text: string; rest: Buffer } | null {
    const end = data.indexOf(10);
    if (end < 0) {
      if (data.length > this.options.maxHeadBytes) throw new HttpParseError('a line is too long');
      this.buffered = data;
      return null;
    }
    const stop = end > 0 && data[end - 1] === 13 ? end - 1 : end;
    return { text: data.toString('latin1', 0, stop), rest: data.subarray(end + 1) };
  }

  private readHead(data: Buffer): Buffer {
    let end = data.indexOf('\r\n\r\n');
    let skip = 4;
    if (end < 0) {
      end = data.indexOf('\n\n');
      skip = 2;
    }
    if (end < 0) {
      if (this.headBytes + data.length > this.options.maxHeadBytes) {
        throw new HttpParseError(`the headers exceed ${this.options.maxHeadBytes} bytes`);
      }
      this.buffered = data;
      return Buffer.alloc(0);
    }
    this.headBytes += end + skip;
    if (this.headBytes > this.options.maxHeadBytes) {
      throw new HttpParseError(`the headers exceed ${this.options.maxHeadBytes} bytes`);
    }
    const lines = data.toString('latin1', 0, end).split(/\r?\n/);
    const statusLine = STATUS_LINE.exec(lines[0] as string);
    if (!statusLine) {
      throw new HttpParseError(`invalid status line "${(lines[0] as string).slice(0, 40)}"`);
    }
    const minor = Number(statusLine[1]);
    const status = Number(statusLine[2]);
    // The target names the headers: a `Constructor` header must not meet Object's constructor.
    const headers = dictionary<string>();
    let last: string | null = null;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      if ((line.startsWith(' ') || line.startsWith('\t')) && last !== null) {
        // Obsolete line folding: the value continues.
        headers[last] = `${headers[last]} ${line.trim()}`;
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!HEADER_NAME.test(name)) {
        throw new HttpParseError(`invalid header line "${line.slice(0, 40)}"`);
      }
      const key = name.toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
      last = key;
    }
    const rest = data.subarray(end + skip);
    if (status >= 100 && status < 200 && status !== 101) {
      // An interim answer (100 Continue, 103 Early Hints): the real one follows.
      return rest;
    }
    this.status = status;
    this.headers = headers;
    const connection = (headers.connection ?? '').toLowerCase();
    this.keepAlive =
      minor === 1 ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    if (this.options.headRequest || status === 101 || status === 204 || status === 304) {
      if (status === 101) this.keepAlive = false;
      this.finish();
      return rest;
    }
    const coding = headers['transfer-encoding'];
    if (coding !== undefined) {
      if (/(?:^|,)\s*chunked\s*$/i.test(coding)) this.state = 'chunkSize';
      else this.readToClose();
      return rest;
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const values = new Set(length.split(',').map((part) => part.trim()));
      const only = values.size === 1 ? [...values][0] : undefined;
      if (only === undefined || !/^\d{1,15}$/.test(only)) {
        throw new HttpParseError(`invalid Content-Length "${length.slice(0, 40)}"`);
      }
      this.remaining = Number(only);
      if (this.remaining === 0) this.finish();
      else this.state = 'length';
      return rest;
    }
    this.readToClose();
    return rest;
  }

  private readToClose(): void {
    this.state = 'close';
    this.keepAlive = false;
  }

  private keep(bytes: Buffer): void {
    const room = this.options.maxBodyBytes - this.keptBytes;
    if (room <= 0 || bytes.length === 0) return;
    const part = bytes.length > room ? bytes.subarray(0, room) : bytes;
    this.kept.push(part);
    this.keptBytes += part.length;
  }

  private finish(): ParsedResponse {
    this.done = {
      status: this.status,
      headers: this.headers,
      body:
        this.kept.length === 1
          ? (this.kept[0] as Buffer)
          : Buffer.concat(this.kept, this.keptBytes),
      keepAlive: this.keepAlive && this.state !== 'close',
    };
    return this.done;
  }
}
