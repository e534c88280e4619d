/**
 * What the router recorded, read back: the event list, one event with its executions, attempts
 * and explanation, and what a request-bin target received. Reads only; holds no state.
 */
import type {
  AttemptView,
  BinEntryView,
  EventDetailView,
  EventListQuery,
  EventSummaryView,
  ExecutionView,
  RuleExplanation,
} from '../../../shared/ipc/areas/router';
import { planRoutes } from '../filter/planRoutes';
import type { RouterContext } from './routerContext';
import { RouterNotFoundError } from './routerErrors';
import type { EventRow } from '../store/routerRows';
import { readBinHeaders } from '../delivery/binHeaders';
import {
  configuredSecrets,
  recordedSecretForms,
  redactRecordedRequest,
  redactRecordedResponse,
  redactValues,
} from '../delivery/secretHeaders';

export class RouterQueries {
  constructor(private readonly context: RouterContext) {}

  listEvents(query: EventListQuery): { total: number; rows: EventSummaryView[] } {
    const { total, rows } = this.context.repository.listEvents({
      status: query.status ?? null,
      publisherId: query.publisherId ?? null,
      ruleId: query.ruleId ?? null,
      fromMs: query.fromMs ?? null,
      toMs: query.toMs ?? null,
      limit: query.limit ?? 100,
      offset: query.offset ?? 0,
    });
    return {
      total,
      rows: rows.map((row) => ({
        id: row.id,
        publisherId: row.publisher_id,
        eventConfigId: row.event_config_id,
        apiName: row.api_name,
        status: row.overall_status,
        timeMs: row.time_ms,
        ruleIds: (JSON.parse(row.rule_ids) as string[]).filter((id) => id !== null),
      })),
    };
  }

  getEvent(id: string): EventDetailView {
    const { repository } = this.context;
    const event = repository.getEvent(id);
    if (!event) throw new RouterNotFoundError(`No event ${id} was received by the router sandbox.`);
    const executionRows = repository.executionsOfEvent(id);
    // The secret values each execution's target is configured with: a row stored before values
    // were redacted no longer names them where its name rule redacted them.
    const known = new Map(
      executionRows.map((row) => {
        const target = this.context.config.target(row.target_id);
        return [row.id, target ? configuredSecrets(target) : []] as const;
      }),
    );
    const attempts = new Map<string, AttemptView[]>();
    for (const row of repository.attemptsOfEvent(id)) {
      const list = attempts.get(row.execution_id) ?? [];
      const request = JSON.parse(row.request) as AttemptView['request'];
      const forms = recordedSecretForms(request, known.get(row.execution_id));
      list.push({
        attempt: row.attempt,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        // Redacted again when read: rows stored before secrets were redacted on writing still
        // hold them (secretHeaders.ts; the router's README says why no migration rewrites them).
        request: redactRecordedRequest(request, forms),
        response:
          row.response === null
            ? null
            : redactRecordedResponse(
                JSON.parse(row.response) as NonNullable<AttemptView['response']>,
                forms,
              ),
        error: row.error === null ? null : redactValues(row.error, forms),
        outcome: row.outcome,
      });
      attempts.set(row.execution_id, list);
    }
    const executions: ExecutionView[] = executionRows.map((row) => ({
      id: row.id,
      ruleId: row.rule_id,
      targetId: row.target_id,
      status: row.status,
      nextAttemptAt: row.next_attempt_at,
      attempts: attempts.get(row.id) ?? [],
      note: row.note,
    }));
    return {
      id: event.id,
      publisherId: event.publisher_id,
      eventConfigId: event.event_config_id,
      apiName: event.api_name,
      status: event.overall_status,
      timeMs: event.time_ms,
      ruleIds: [...new Set(executions.map((execution) => execution.ruleId))],
      data: JSON.parse(event.data) as unknown,
      version: event.version,
      schemaErrors: JSON.parse(event.schema_errors) as string[],
      explanation: this.explain(event),
      executions,
      redeliveryOf: event.redelivery_of,
    };
  }

  /**
   * Which conditions of each rule of the event matched, with the values compared: worked out when
   * asked (storing it for every event and rule would cost more than routing), from the data and
   * the event's own time, with the rules as they are now; a rule changed since says so.
   */
  private explain(event: EventRow): RuleExplanation[] {
    if (event.stage !== 'routed' || event.publisher_status === 'inactive') return [];
    return planRoutes({
      data: JSON.parse(event.data) as unknown,
      rules: this.context.config.rulesFor(event.event_config_id),
      targets: this.context.config.targets(),
      context: { nowMs: event.time_ms, timeZone: this.context.account().time_zone },
      explain: true,
      eventTimeMs: event.time_ms,
    }).explanation;
  }

  requestBin(targetId: string, limit = 100): BinEntryView[] {
    const target = this.context.config.target(targetId);
    if (!target) throw new RouterNotFoundError(`No target ${targetId}.`);
    const known = configuredSecrets(target);
    return this.context.repository.listBinEntries(targetId, limit).map((row) => {
      const { headers, omitted } = readBinHeaders(row.headers);
      // Redacted again when read, as attempts are.
      const forms = recordedSecretForms({ url: row.url, headers }, known);
      const redacted = redactRecordedRequest({ url: row.url, headers, body: row.body }, forms);
      return {
        id: row.id,
        targetId: row.target_id,
        receivedAt: row.received_at,
        method: row.method,
        url: redacted.url,
        headers: redacted.headers,
        headersOmitted: omitted,
        body: redacted.body,
      };
    });
  }
}
