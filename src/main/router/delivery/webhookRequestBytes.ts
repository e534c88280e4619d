import type { TargetRequest } from './buildTargetRequest';
import { HTTP_HEADER_VALUE } from '../../../shared/ipc/areas/router';
import { HEADER_NAME } from './httpResponseParser';
import type { WebhookOrigin } from './webhookConnections';

const NON_ASCII = /[^\t\n\r\x20-\x7e]/;
/** Framing is ours: a template cannot set these and break the request. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding']);

interface ParsedUrl {
  origin: WebhookOrigin;
  /** The Host header: host and port unless the port is the scheme's default. */
  host: string;
  /** Path and query, as sent in the request line. */
  target: string;
}

/** Parsed target URLs: the same few targets are called over and over. */
const parsedUrls = new Map<string, ParsedUrl>();
const MAX_PARSED_URLS = 1_000;

export class WebhookRequestError extends Error {
  override name = 'WebhookRequestError';
}

function parseUrl(text: string): ParsedUrl {
  const cached = parsedUrls.get(text);
  if (cached) return cached;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebhookRequestError(`${url.protocol} URLs cannot be called; use http or https`);
  }
  if (url.username !== '' || url.password !== '') {
    // A target saved before the contract refused them: the request line cannot carry them, and
    // sending without them would fail in a way that hides why.
    throw new WebhookRequestError(
      'a URL with a user name or password is not called; move them into an Authorization header',
    );
  }
  const secure = url.protocol === 'https:';
  const parsed: ParsedUrl = {
    origin: {
      secure,
      host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port ? Number(url.port) : secure ? 443 : 80,
    },
    host: url.host,
    target: `${url.pathname}${url.search}`,
  };
  if (parsedUrls.size >= MAX_PARSED_URLS) parsedUrls.clear();
  parsedUrls.set(text, parsed);
  return parsed;
}

/**
 * The bytes of one HTTP/1.1 request for a webhook call, and where to send them. Header values are
 * checked as node:http checks them (a `{{path}}` template could carry a line break from the
 * event's data); the head is Latin-1 and the body UTF-8, as node:http writes them.
 */
export function webhookRequestBytes(request: TargetRequest): {
  origin: WebhookOrigin;
  bytes: string | Buffer;
} {
  const url = parseUrl(request.url);
  let head = `${request.method} ${url.target} HTTP/1.1\r\n`;
  const names = new Set<string>();
  for (const [name, value] of Object.entries(request.headers)) {
    if (!HEADER_NAME.test(name)) {
      throw new WebhookRequestError(`the header name "${name}" is not allowed in HTTP`);
    }
    if (!HTTP_HEADER_VALUE.test(value)) {
      throw new WebhookRequestError(
        `the value of header ${name} has characters HTTP does not allow (such as a line break)`,
      );
    }
    const lower = name.toLowerCase();
    if (FRAMING_HEADERS.has(lower)) continue;
    names.add(lower);
    head += `${name}: ${value}\r\n`;
  }
  if (!names.has('host')) head += `host: ${url.host}\r\n`;
  if (!names.has('connection')) head += 'connection: keep-alive\r\n';
  const body = request.body;
  if (body !== null) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  head += '\r\n';
  if (NON_ASCII.test(head)) {
    const bytes = Buffer.from(head, 'latin1');
    return {
      origin: url.origin,
      bytes: body === null ? bytes : Buffer.concat([bytes, Buffer.from(body)]),
    };
  }
  // An ASCII head and a UTF-8 body can go as one string, written in one call.
  return { origin: url.origin, bytes: body === null ? head : head + body };
}
