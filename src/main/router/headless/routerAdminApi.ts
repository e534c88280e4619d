import { BAD_TARGET_MESSAGE, requestTarget } from '../../http/requestTarget';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  OverallStatus,
  PublisherStatus,
  RuleStatus,
  TargetStatus,
  type EventDetailView,
  type EventSummaryView,
} from '../../../shared/ipc/areas/router';
import { UserFacingError } from '../../bridge/dispatcher';
import { foreignHostMessage, isAllowedHostHeader } from '@portaldesk/portal-api/http/loopbackHost';
import { readBody, sendJson } from '../../http/httpJson';
import { RouterNotFoundError } from '../engine/routerErrors';
import { LATEST_ROUTER_TIME_MS } from '../engine/virtualClock';
import type { RouterEngine } from '../engine/routerEngine';
import { ROUTER_HOST } from '../routerIngress';
import { redactUrl } from '../delivery/secretHeaders';

const MAX_ADMIN_BODY_BYTES = 16 * 1024;

/**
 * A list query's number (`limit`, `offset`, `from`, `to`): whole and not negative, else refused.
 * Left to Number(), `limit=abc` failed inside SQLite (500) and `from=yesterday` dropped the
 * condition, so the list answered as if no event had arrived.
 */
export function wholeNumberParam(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  if (!/^\d{1,15}$/.test(value)) {
    throw new UserFacingError(
      `${name} must be a whole number of 0 or more (epoch milliseconds for from and to), not "${value.slice(0, 40)}"; nothing was listed.`,
    );
  }
  return Number(value);
}

/** `in_progress`, `In Progress` and `in progress` all name the status "In Progress". */
export function parseStatusParam(text: string): OverallStatus | null {
  const wanted = text.replace(/_/g, ' ').toLowerCase();
  return OverallStatus.options.find((status) => status.toLowerCase() === wanted) ?? null;
}

function summaryJson(event: EventSummaryView) {
  return {
    id: event.id,
    publisher_id: event.publisherId,
    event_config_id: event.eventConfigId,
    api_name: event.apiName,
    overall_status: event.status,
    time_in_ms: event.timeMs,
    rule_ids: event.ruleIds,
  };
}

function detailJson(event: EventDetailView) {
  return {
    ...summaryJson(event),
    version: event.version,
    data: event.data,
    schema_errors: event.schemaErrors,
    redelivery_of: event.redeliveryOf,
    explanation: event.explanation,
    executions: event.executions.map((execution) => ({
      id: execution.id,
      rule_id: execution.ruleId,
      target_id: execution.targetId,
      status: execution.status,
      next_attempt_at: execution.nextAttemptAt,
      note: execution.note,
      attempts: execution.attempts.map((attempt) => ({
        attempt: attempt.attempt,
        started_at: attempt.startedAt,
        finished_at: attempt.finishedAt,
        outcome: attempt.outcome,
        error: attempt.error,
        request: attempt.request,
        response: attempt.response,
      })),
    })),
  };
}

/**
 * The headless command's admin API (issue 8), on loopback and only with
 * `Authorization: Bearer <admin_token>`: events and their executions, status changes of rules,
 * targets and publishers, request bins, and the virtual clock.
 */
export class RouterAdminApi {
  readonly token: string;
  private server: Server | null = null;

  constructor(
    private readonly engine: RouterEngine,
    token?: string,
  ) {
    this.token = token ?? randomBytes(24).toString('hex');
  }

  async start(port = 0): Promise<string> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (response.headersSent) return;
        if (error instanceof RouterNotFoundError) sendJson(response, 404, { error: error.message });
        else if (error instanceof UserFacingError)
          sendJson(response, 400, { error: error.message });
        else
          sendJson(response, 500, {
            error: `The admin API failed: ${error instanceof Error ? error.message : String(error)}`,
          });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, ROUTER_HOST, () => resolve());
    });
    this.server = server;
    return `http://${ROUTER_HOST}:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private authorized(request: IncomingMessage): boolean {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    if (!match) return false;
    const given = Buffer.from(match[1] as string);
    const expected = Buffer.from(this.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const port = request.socket.localPort ?? 0;
    if (!isAllowedHostHeader(request.headers.host, port)) {
      // DNS rebinding: refused before the token is even looked at.
      request.resume();
      sendJson(response, 403, { error: foreignHostMessage(port) });
      return;
    }
    if (!this.authorized(request)) {
      request.resume();
      sendJson(response, 401, {
        error: 'Send the admin token printed at start-up as "Authorization: Bearer <admin_token>".',
      });
      return;
    }
    const url = requestTarget(request.url, 'http://admin');
    if (url === null) {
      request.resume();
      sendJson(response, 400, { error: BAD_TARGET_MESSAGE });
      return;
    }
    const parts = url.pathname.split('/').filter(Boolean);
    const method = request.method ?? 'GET';
    const route = `${method} /${parts.map((part, i) => (i === 1 && parts[0] !== 'clock' ? ':id' : part)).join('/')}`;
    const engine = this.engine;
    const body = async (): Promise<Record<string, unknown>> => {
      const { text, tooLarge } = await readBody(request, MAX_ADMIN_BODY_BYTES);
      if (tooLarge) throw new UserFacingError('The body is too large; nothing was changed.');
      try {
        const value = JSON.parse(text || '{}') as unknown;
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          return value as Record<string, unknown>;
        }
      } catch {
        // answered below
      }
      throw new UserFacingError('The body must be a JSON object; nothing was changed.');
    };
    const id = parts[1] as string;

    switch (route) {
      case 'GET /events': {
        const statusText = url.searchParams.get('status');
        const status = statusText === null ? undefined : parseStatusParam(statusText);
        if (status === null) {
          throw new UserFacingError(
            `Unknown status "${statusText}"; use one of: ${OverallStatus.options.join(', ')}.`,
          );
        }
        const number = (name: string) => wholeNumberParam(url.searchParams, name);
        const list = engine.listEvents({
          ...(status ? { status } : {}),
          ...(url.searchParams.get('publisher_id')
            ? { publisherId: url.searchParams.get('publisher_id')! }
            : {}),
          ...(url.searchParams.get('rule_id') ? { ruleId: url.searchParams.get('rule_id')! } : {}),
          ...(number('from') !== undefined ? { fromMs: number('from') } : {}),
          ...(number('to') !== undefined ? { toMs: number('to') } : {}),
          limit: Math.min(Math.max(number('limit') ?? 100, 1), 500),
          offset: Math.max(number('offset') ?? 0, 0),
        });
        sendJson(response, 200, { total: list.total, events: list.rows.map(summaryJson) });
        return;
      }
      case 'GET /events/:id':
        sendJson(response, 200, detailJson(engine.getEvent(id)));
        return;
      case 'POST /events/:id/redeliver': {
        const newId = engine.redeliver(id);
        await engine.stored();
        sendJson(response, 202, { id: newId });
        return;
      }
      case 'PATCH /rules/:id': {
        const status = RuleStatus.safeParse((await body()).status);
        if (!status.success)
          throw new UserFacingError(
            `status must be one of ${RuleStatus.options.join(', ')}; nothing was changed.`,
          );
        sendJson(response, 200, engine.setRuleStatus(id, status.data));
        return;
      }
      case 'PATCH /targets/:id': {
        const status = TargetStatus.safeParse((await body()).status);
        if (!status.success)
          throw new UserFacingError(
            `status must be one of ${TargetStatus.options.join(', ')}; nothing was changed.`,
          );
        const target = engine.setTargetStatus(id, status.data);
        // Shown as the event log shows it: an address that is its own credential, masked.
        sendJson(response, 200, {
          ...target,
          url: target.url === null ? null : redactUrl(target.url),
        });
        return;
      }
      case 'PATCH /publishers/:id': {
        const status = PublisherStatus.safeParse((await body()).status);
        if (!status.success)
          throw new UserFacingError(
            `status must be one of ${PublisherStatus.options.join(', ')}; nothing was changed.`,
          );
        sendJson(response, 200, engine.setPublisherStatus(id, status.data));
        return;
      }
      case 'GET /targets/:id/requests':
        sendJson(response, 200, { requests: engine.requestBin(id, 500) });
        return;
      case 'POST /clock/advance': {
        const ms = Number((await body()).ms);
        if (!(ms >= 0) || !Number.isFinite(ms))
          throw new UserFacingError('Send {"ms": N} with N ≥ 0; the clock did not move.');
        if (ms > LATEST_ROUTER_TIME_MS - engine.clock.now())
          throw new UserFacingError(
            `${ms} ms from now is past the last date the router can store (${new Date(LATEST_ROUTER_TIME_MS).toISOString()}); the clock did not move. Jump less far.`,
          );
        engine.clock.advance(ms);
        sendJson(response, 200, { now_ms: engine.clock.now() });
        return;
      }
      default:
        request.resume();
        sendJson(response, 404, {
          error: `No admin route ${method} ${url.pathname}. Routes: GET /events, GET /events/{id}, POST /events/{id}/redeliver, PATCH /rules|targets|publishers/{id}, GET /targets/{id}/requests, POST /clock/advance.`,
        });
    }
  }
}
