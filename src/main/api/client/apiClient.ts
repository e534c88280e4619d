/**
 * The REST v3 client: one typed function per endpoint of the table in endpoints.ts, for one data
 * center of one service profile. Each attempt goes through the injected scheduler (which paces
 * it by the endpoint key's budget); the token comes from the injected provider just before the
 * send; a refused token triggers one shared refresh and one more try; transient failures are
 * retried by retryPolicy.ts; anything else becomes an ApiError.
 */
import type { SkippedItem } from '@portaldesk/portal-api/domain/parseEach';
import { abortableSleep } from '../../abortableSleep';
import { apiBaseUrl, type ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import {
  ApiError,
  CLIENT_ERROR_CODES,
  classifyStatus,
  refusalMessage,
  type ApiEndpointRef,
} from './apiError';
import type { ApiScheduler, RequestPriority } from './apiScheduler';
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName, type EndpointSpec } from './endpoints';
import type { EndpointArgs, EndpointResult } from './endpointTypes';
import { describeNetworkFailure, type NetworkFailure } from './networkFailure';
import { readReply, snippet, type ReplyReading } from './readReply';
import { REPLY_TURN_BYTES, replyTurn } from './replyTurns';
import { encodeBody, endpointKey, endpointLabel, requestUrl, type CallArgs } from './requestParts';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isIdempotentCall,
  mayRetry,
  retryAfterSeconds,
  type RetryPolicy,
} from './retryPolicy';
import type { TokenProvider } from './tokenProvider';
import { TokenRefresher } from './tokenRefresher';

/** Ours: a send that has not been answered in full after this long is abandoned (and retried). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** A reply whose list had items PortalDesk could not read: logged with the endpoint, skipped. */
export interface MalformedReplyReport {
  endpoint: ApiEndpointRef;
  url: string;
  skipped: SkippedItem[];
}

/** One line for the log: the endpoint, the URL and each skipped item with its problems. */
export function describeMalformedReply(report: MalformedReplyReport): string {
  const items = report.skipped
    .map(
      (item) => `#${item.index}${item.id ? ` (id ${item.id})` : ''}: ${item.problems.join(', ')}`,
    )
    .join('; ');
  return `${report.endpoint.label} (${report.url}): skipped ${report.skipped.length} malformed item(s), kept the rest. ${items}`;
}

export interface ApiClientOptions {
  profile: ServiceProfile;
  /** A key of `profile.dataCenters`: where this client's token is valid. */
  dataCenter: string;
  tokens: TokenProvider;
  scheduler: ApiScheduler;
  fetch?: typeof globalThis.fetch;
  /** Per send, until the reply is read in full. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Waits between retries; injected so tests need not wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Where skipped items are reported; default: a warning on the console. */
  onMalformed?: (report: MalformedReplyReport) => void;
  /** `legacy` sends the profile's older scheme (`PMS-oauthtoken <token>`) instead of `Bearer`. */
  authScheme?: 'bearer' | 'legacy';
}

export interface CallOptions {
  /** Default: `background` for reads, `user` for writes (only the user and the outbox write). */
  priority?: RequestPriority;
  signal?: AbortSignal;
  /** The user's words for what is attempted, e.g. "the change to 'Name'", for refusal messages. */
  subject?: string;
  /**
   * Told of every answer the service gave to this call (each attempt that got one, any status),
   * before it is read: the outbox keeps what it sent and what came back (its history).
   */
  onAnswer?: (answer: AnsweredCall) => void;
  /**
   * Reads a successful reply's bytes in place of readReply, as readReply reads them: a reading
   * with problems fails the call as readReply's would; a reader that throws (its thread
   * stopped) fails it with that error. The sync's record pages are read on the mirror's writer
   * thread, which keeps their records (sync/recordPages.ts); the call then answers what this
   * reading holds.
   */
  read?: (bytes: Uint8Array) => Promise<ReplyReading>;
}

/** One request that got an answer: what went out (the body as sent) and what came back. */
export interface AnsweredCall {
  method: string;
  url: string;
  requestBody: string | null;
  status: number;
  text: string;
}

export type ApiClient = {
  readonly [N in EndpointName]: (
    args: EndpointArgs<N>,
    options?: CallOptions,
  ) => Promise<EndpointResult<N>>;
} & {
  readonly profile: ServiceProfile;
  readonly dataCenter: string;
  /** The rate limit's key for a call, without making it (for plans and ETAs). */
  endpointKey<N extends EndpointName>(name: N, args: EndpointArgs<N>): string;
};

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

interface ErrorBody {
  errorCode: string | null;
  message: string | null;
}

/** `{"errorCode", "message"}` (the emulator's shape; the spec shows none), read leniently. */
function readErrorBody(text: string): ErrorBody {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const code = body.errorCode ?? body.code ?? body.error;
    const message = body.message ?? body.error_description;
    return {
      errorCode: typeof code === 'string' ? code : null,
      message: typeof message === 'string' ? message : null,
    };
  } catch {
    return { errorCode: null, message: text.trim() === '' ? null : snippet(text) };
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function networkMessage(
  failure: NetworkFailure,
  spec: EndpointSpec,
  attempts: number,
  idempotent: boolean,
): string {
  const what = `PortalDesk could not ${spec.action}: ${failure.reason} (${plural(attempts, 'attempt')}).`;
  if (!failure.mayHaveReached)
    return `${what} Nothing reached the service; check the connection and try again.`;
  if (idempotent) return `${what} Trying again is safe once the connection is back.`;
  return `${what} The request may have reached the service; refresh to check before repeating it.`;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { profile, dataCenter: dc, tokens, scheduler } = options;
  apiBaseUrl(profile, dc); // an unknown data center fails here, not at the first call
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const refresher = new TokenRefresher(tokens);
  const scheme = options.authScheme === 'legacy' ? profile.legacyAuthScheme : 'Bearer';
  const onMalformed =
    options.onMalformed ?? ((report) => console.warn(describeMalformedReply(report)));

  async function call(name: EndpointName, args: CallArgs, callOptions: CallOptions = {}) {
    const spec: EndpointSpec = ENDPOINTS[name];
    const endpoint: ApiEndpointRef = { name, label: endpointLabel(profile, spec) };
    const url = requestUrl(profile, dc, spec, args);
    const key = endpointKey(profile, dc, spec, args);
    const encoded = encodeBody(spec.body, args.body);
    const priority = callOptions.priority ?? (spec.method === 'GET' ? 'background' : 'user');
    const idempotent = isIdempotentCall(spec.method, spec.addsWithoutId === true, args.body);
    const { signal } = callOptions;

    let attempts = 0;
    let transientFailures = 0;
    /** A send before this one may have been applied: told to the caller with a refusal. */
    let earlierSendMayHaveActed = false;
    let rejected: string | null = null;
    let renewed: string | null = null;

    /** After a refresh, the renewed token, unless the provider already hands out a newer one. */
    const tokenForSend = async (): Promise<string> => {
      let token: string;
      try {
        token = await tokens.accessToken();
      } catch (error) {
        throw new ApiError({
          kind: 'auth',
          status: null,
          errorCode: CLIENT_ERROR_CODES.refreshFailed,
          message: `PortalDesk has no valid access to the service (${error instanceof Error ? error.message : String(error)}). Sign in again; nothing was changed on the service.`,
          endpoint,
          attempts,
          cause: error,
        });
      }
      return renewed !== null && token === rejected ? renewed : token;
    };

    const waitBeforeRetry = async (retryAfter: number | null) => {
      transientFailures++;
      const delay = Math.max(
        backoffDelay(transientFailures, policy, random),
        retryAfter === null ? 0 : retryAfter * 1000,
      );
      await sleep(delay, signal);
    };

    for (;;) {
      throwIfCancelled(signal);
      attempts++;
      let used = '';
      // One timer per send; the scheduler may send more than once (after a 429 it handles).
      const timers: ReturnType<typeof setTimeout>[] = [];
      let response: Response;
      let bytes: Uint8Array;
      try {
        response = await scheduler.schedule({
          key,
          priority,
          ...(signal ? { signal } : {}),
          send: async (sendSignal) => {
            used = await tokenForSend();
            const timeout = new AbortController();
            const timer = setTimeout(
              () => timeout.abort(new DOMException('The send timed out.', 'TimeoutError')),
              timeoutMs,
            );
            timers.push(timer);
            const headers: Record<string, string> = {
              Authorization: `${scheme} ${used}`,
              Accept: 'application/json',
            };
            if (encoded.contentType) headers['Content-Type'] = encoded.contentType;
            return fetchFn(url, {
              method: spec.method,
              headers,
              ...(encoded.body !== undefined ? { body: encoded.body } : {}),
              signal: AbortSignal.any([sendSignal, timeout.signal]),
            });
          },
        });
        // Bytes, not text: a page as one string costs more than its parsing (parseJsonBytes).
        bytes = new Uint8Array(await response.arrayBuffer());
        // Decoded only for a caller that keeps the answer (the outbox's history of writes).
        if (callOptions.onAnswer) {
          callOptions.onAnswer({
            method: spec.method,
            url,
            requestBody: encoded.body ?? null,
            status: response.status,
            text: new TextDecoder().decode(bytes),
          });
        }
      } catch (error) {
        throwIfCancelled(signal);
        if (error instanceof ApiError) throw error;
        const failure = describeNetworkFailure(error);
        const retryable = mayRetry(
          idempotent,
          failure.mayHaveReached ? 'maybe-reached' : 'unreached',
        );
        if (retryable && transientFailures + 1 < policy.attempts) {
          if (failure.mayHaveReached) earlierSendMayHaveActed = true;
          await waitBeforeRetry(null);
          continue;
        }
        throw new ApiError({
          kind: 'transient',
          status: null,
          errorCode: failure.errorCode,
          message: networkMessage(failure, spec, attempts, idempotent),
          endpoint,
          attempts,
          cause: error,
        });
      } finally {
        for (const timer of timers) clearTimeout(timer);
      }

      if (response.status >= 200 && response.status < 300) {
        // Read whatever happens to the signal meanwhile: the service answered, and a write's
        // answer must not be lost to a cancel.
        if (bytes.length >= REPLY_TURN_BYTES) await replyTurn();
        const reading = callOptions.read
          ? await callOptions.read(bytes)
          : readReply(spec.reply, bytes);
        if (!reading.ok) {
          throw new ApiError({
            kind: 'permanent',
            status: response.status,
            errorCode: CLIENT_ERROR_CODES.malformed,
            message: `The service's reply to ${endpoint.label} could not be read (${reading.problems.slice(0, 3).join('; ')}). ${
              spec.method === 'GET'
                ? 'Nothing from it was stored.'
                : 'The service may have made the change; refresh to check.'
            } If this persists, the service's API may have changed.`,
            endpoint,
            attempts,
            problems: reading.problems,
          });
        }
        if (reading.skipped.length > 0) onMalformed({ endpoint, url, skipped: reading.skipped });
        return reading.value;
      }

      const body = readErrorBody(new TextDecoder().decode(bytes));
      const kind = classifyStatus(response.status, body.errorCode);
      const failure = {
        status: response.status,
        errorCode: body.errorCode ?? CLIENT_ERROR_CODES.unknown,
        serverMessage: body.message,
        endpoint,
        attempts,
        earlierSendMayHaveActed,
      };
      if (kind === 'auth') {
        if (rejected === null) {
          rejected = used;
          try {
            renewed = await refresher.refresh(used);
          } catch (error) {
            throwIfCancelled(signal);
            throw new ApiError({
              ...failure,
              kind: 'auth',
              errorCode: CLIENT_ERROR_CODES.refreshFailed,
              message: `PortalDesk's access to the service has expired and could not be renewed (${error instanceof Error ? error.message : String(error)}). Sign in again; nothing was changed on the service.`,
              cause: error,
            });
          }
          continue;
        }
        throw new ApiError({
          ...failure,
          kind: 'auth',
          message: `The service refused PortalDesk's access even after renewing it (${body.message ?? `HTTP ${response.status}`}). Sign in again; nothing was changed on the service.`,
        });
      }
      const retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
      if (kind === 'rate') {
        throw new ApiError({
          ...failure,
          kind: 'rate',
          retryAfterSeconds: retryAfter,
          message: `The service is limiting calls to ${endpoint.label}${retryAfter === null ? '' : ` for ${retryAfter} s`}. Nothing was changed; PortalDesk will try again after that.`,
        });
      }
      if (kind === 'transient') {
        if (mayRetry(idempotent, 'answered') && transientFailures + 1 < policy.attempts) {
          // A 5xx came after the service received it: it may have acted before failing.
          earlierSendMayHaveActed = true;
          await waitBeforeRetry(retryAfter);
          continue;
        }
        throw new ApiError({
          ...failure,
          kind: 'transient',
          message: `The service failed to ${spec.action} (HTTP ${response.status}${body.message ? `: ${body.message}` : ''}; ${plural(attempts, 'attempt')}). ${
            idempotent
              ? 'Trying again later is safe.'
              : 'It may have made the change anyway; refresh to check before repeating it.'
          }`,
        });
      }
      throw new ApiError({
        ...failure,
        kind: 'permanent',
        message: refusalMessage({
          status: response.status,
          errorCode: body.errorCode,
          serverMessage: body.message,
          action: spec.action,
          ...(callOptions.subject ? { subject: callOptions.subject } : {}),
        }),
      });
    }
  }

  const client: Record<string, unknown> = {
    profile,
    dataCenter: dc,
    endpointKey: (name: EndpointName, args: CallArgs) =>
      endpointKey(profile, dc, ENDPOINTS[name], args),
  };
  for (const name of ENDPOINT_NAMES) {
    const fn = (args: CallArgs, callOptions?: CallOptions) => call(name, args, callOptions);
    // Named and labelled, so helpers such as paginate can say which endpoint misbehaved.
    Object.defineProperty(fn, 'name', { value: name });
    client[name] = Object.assign(fn, {
      endpoint: { name, label: endpointLabel(profile, ENDPOINTS[name]) },
    });
  }
  return client as unknown as ApiClient;
}
