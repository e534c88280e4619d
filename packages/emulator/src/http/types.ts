import type { IncomingHttpHeaders } from 'node:http';
import type { EmulatorState } from '../state';
import type { HttpMethod } from './router';

/** Who made an API call, established from its access token. */
export interface Caller {
  zpuid: string;
  clientId: string;
  scopes: string[];
  dc: string;
}

export interface ApiRequest {
  method: HttpMethod;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The data center whose server received the request. */
  dc: string;
  /** Base address of this data center's server, e.g. `http://127.0.0.1:4100`. */
  origin: string;
  rawBody: Buffer;
  /** The JSON body; malformed JSON is an INVALID_INPUTSTREAM error. Undefined when empty. */
  json(): unknown;
  /** Form fields (application/x-www-form-urlencoded) of the body. */
  form(): URLSearchParams;
  /** Set for `kind: 'api'` routes. */
  caller: Caller | undefined;
}

export interface ApiReply {
  status?: number;
  /** Serialised as JSON, unless `raw` is given. */
  body?: unknown;
  raw?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * - `api`: under /api/v3, needs an access token of this data center and the listed scopes, and
 *   counts against the rate limit.
 * - `accounts`: the OAuth endpoints; no token.
 * - `admin`: /__emulator/, needs the admin secret.
 * - `public`: anything else without credentials (backup downloads carry their own key).
 */
export type RouteKind = 'api' | 'accounts' | 'admin' | 'public';

export interface Route {
  method: HttpMethod;
  template: string;
  kind: RouteKind;
  /** Every scope the token must cover, e.g. `PMS.portals.READ`. */
  scopes?: readonly string[];
  handle(request: ApiRequest, state: EmulatorState): ApiReply | Promise<ApiReply>;
}
