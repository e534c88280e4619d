/**
 * Events in and routed: the ingress's checks, publishing (stored as Received, validated against
 * the schema), routing each event in the group commit that stores it, redelivery and test events,
 * and picking up after a restart. Owns the events waiting to be routed and the delivery worker
 * that sends what routing planned.
 */
import type { TargetView } from '../../../shared/ipc/areas/router';
import { apiKeyMatches } from './apiKeys';
import type { PayloadEvent } from '../delivery/buildPayload';
import type { CompareContext } from '../filter/compareValue';
import { DeliveryWorker, type DeliveryJob } from '../delivery/deliveryWorker';
import { deriveOverallStatus, type RoutePair } from '../status/deriveOverallStatus';
import type { EventSchemas } from './eventSchemas';
import { planRoutes } from '../filter/planRoutes';
import { isPlainObject, requireEventConfig, type RouterContext } from './routerContext';
import { RouterInputError, RouterNotFoundError } from './routerErrors';
import type { EventConfigRow, ExecutionRow, PublisherRow } from '../store/routerRows';

interface PendingRoute {
  id: string;
  publisher: PublisherRow;
  config: EventConfigRow;
  data: Record<string, unknown>;
  timeMs: number;
  version: number | null;
}

export class EventIntake {
  private readonly pending: PendingRoute[] = [];
  private readonly worker: DeliveryWorker;

  constructor(
    private readonly context: RouterContext,
    private readonly schemas: EventSchemas,
  ) {
    this.worker = new DeliveryWorker({
      repository: context.repository,
      config: context.config,
      clock: context.clock,
      account: () => context.account(),
      changed: () => context.changed(false, true),
      ...(context.log ? { log: context.log } : {}),
    });
    context.repository.beforeCommit(() => this.routePending());
  }

  /**
   * The hook for default publishers (sync, the outbox, platform services) and the ingress: stores
   * the event as Received and routes it on the next turn of the event loop. Returns its id.
   */
  publish(
    publisherId: string,
    eventApiName: string,
    data: unknown,
    redeliveryOf: string | null = null,
  ): string {
    const publisher = this.context.config.publisher(publisherId);
    if (!publisher)
      throw new RouterNotFoundError(`No publisher ${publisherId}; the event was not recorded.`);
    const config = this.context.config.eventConfigByName(publisherId, eventApiName);
    if (!config) {
      throw new RouterNotFoundError(
        `${publisher.name} has no event named ${eventApiName}; the event was not recorded.`,
      );
    }
    if (!isPlainObject(data)) {
      throw new RouterInputError(
        "An event's data must be a JSON object; the event was not recorded.",
      );
    }
    if (publisher.kind !== 'custom') this.schemas.followPublisher(publisher, config, data);
    const { version, errors } = this.schemas.validate(config.id, data);
    const id = this.context.ids.next();
    const timeMs = Math.trunc(this.context.clock.now());
    const inactive = publisher.status === 'inactive';
    const row = {
      id,
      publisher_id: publisherId,
      event_config_id: config.id,
      api_name: eventApiName,
      time_ms: timeMs,
      data: JSON.stringify(data),
      version,
      // An inactive publisher's event is recorded, not routed (spec: Unprocessed).
      stage: inactive ? 'routed' : 'received',
      publisher_status: publisher.status,
      overall_status: inactive ? 'Unprocessed' : 'Received',
      schema_errors: JSON.stringify(errors),
      redelivery_of: redeliveryOf,
    } as const;
    this.context.repository.queue((batch) => batch.insertEvent(row));
    // Routed just before the commit that stores it, so the event is written once, already routed.
    if (!inactive) this.pending.push({ id, publisher, config, data, timeMs, version });
    this.context.changed(false, true);
    return id;
  }

  /**
   * Settles once every event published so far is stored (committed); the ingress answers 202 only
   * then. Rejects if the commit failed.
   */
  stored(): Promise<void> {
    return this.context.repository.committed();
  }

  /** The ingress's check of a custom publisher's key; null when accepted, else the HTTP answer. */
  authenticate(
    publisherId: string,
    apiKey: string | undefined,
  ): { status: number; error: string } | null {
    const publisher = this.context.config.publisher(publisherId);
    if (!publisher) return { status: 404, error: `No publisher ${publisherId}.` };
    if (!apiKey || !publisher.api_key_hash || !apiKeyMatches(apiKey, publisher.api_key_hash)) {
      return {
        status: 401,
        error: `The X-Api-Key header does not match publisher ${publisherId}'s API key. Nothing was recorded; use the key shown when the publisher was created (or rotate it).`,
      };
    }
    return null;
  }

  hasEvent(publisherId: string, apiName: string): boolean {
    return this.context.config.eventConfigByName(publisherId, apiName) !== undefined;
  }

  /** Routes a stored event's data again as a new event, linked to the original. */
  redeliver(id: string): string {
    const event = this.context.repository.getEvent(id);
    if (!event) throw new RouterNotFoundError(`No event ${id}; nothing was redelivered.`);
    return this.publish(event.publisher_id, event.api_name, JSON.parse(event.data), id);
  }

  /** Publishes the event's stored sample as a new event. */
  sendTestEvent(eventConfigId: string): string {
    const config = requireEventConfig(this.context.config, eventConfigId);
    if (config.sample === null) {
      throw new RouterInputError(
        `${config.api_name} has no sample yet; add one under its schema (or capture one), then send the test event.`,
      );
    }
    return this.publish(config.publisher_id, config.api_name, JSON.parse(config.sample));
  }

  /**
   * Plans every pending event's executions, in the group commit that stores the event (a hook run
   * before each commit), and hands the deliveries to the worker, which sends them once stored.
   */
  private routePending(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0);
    const targets = this.context.config.targets();
    const compare = { nowMs: this.context.clock.now(), timeZone: this.context.account().time_zone };
    const jobs: DeliveryJob[] = [];
    for (const event of batch) {
      try {
        this.routeOne(event, targets, compare, jobs);
      } catch (error) {
        // Stays Received; the next start routes it again.
        this.context.log?.error(`Event ${event.id} could not be routed`, error);
      }
    }
    for (const job of jobs) this.worker.enqueue(job);
    this.context.changed(false, true);
  }

  private routeOne(
    event: PendingRoute,
    targets: ReadonlyMap<string, TargetView>,
    context: CompareContext,
    jobs: DeliveryJob[],
  ): void {
    const plan = planRoutes({
      data: event.data,
      rules: this.context.config.rulesFor(event.config.id),
      targets,
      context,
    });
    const payloadEvent: PayloadEvent = {
      id: event.id,
      data: event.data,
      timeMs: event.timeMs,
      publisherId: event.publisher.id,
      service: event.publisher.service,
      eventConfigId: event.config.id,
      apiName: event.config.api_name,
    };
    const tracked: (RoutePair & { executionId: string })[] = [];
    const executions: ExecutionRow[] = [];
    for (const pair of plan.pairs) {
      const executionId = this.context.ids.next();
      tracked.push({
        executionId,
        ruleStatus: pair.ruleStatus,
        targetStatus: pair.targetStatus,
        execution: pair.status,
      });
      executions.push({
        id: executionId,
        event_id: event.id,
        rule_id: pair.ruleId,
        target_id: pair.targetId,
        rule_status: pair.ruleStatus,
        target_status: pair.targetStatus,
        status: pair.status,
        retry_count: pair.retryCount,
        next_attempt_at: null,
        note: pair.note,
      });
      if (pair.status === 'In Queue') {
        jobs.push({
          executionId,
          ruleId: pair.ruleId,
          targetId: pair.targetId,
          retryCount: pair.retryCount,
          attempt: 1,
          event: payloadEvent,
          version: event.version,
        });
      }
    }
    const status = deriveOverallStatus({
      stage: 'routed',
      publisherStatus: event.publisher.status,
      pairs: tracked,
    });
    this.context.repository.queue((writes) => {
      for (const execution of executions) writes.insertExecution(execution);
      writes.setOverallStatus(event.id, status, true);
    });
    this.worker.track(event.id, event.publisher.status, tracked, status);
  }

  /** Resolves once every received event is routed and no delivery is queued or running. */
  async settle(): Promise<void> {
    for (;;) {
      if (this.pending.length > 0) await this.context.repository.committed();
      await this.worker.settle();
      if (this.pending.length === 0) return;
    }
  }

  /** Picks up where a previous run stopped: unrouted events are routed, unfinished deliveries resume. */
  resume(): void {
    const { repository, config } = this.context;
    // Events accepted (202) but not yet matched against the rules when the process stopped.
    for (const event of repository.unroutedEvents()) {
      const publisher = config.publisher(event.publisher_id);
      const eventConfig = config.eventConfig(event.event_config_id);
      if (!publisher || !eventConfig) continue;
      this.pending.push({
        id: event.id,
        publisher,
        config: eventConfig,
        data: JSON.parse(event.data) as Record<string, unknown>,
        timeMs: event.time_ms,
        version: event.version,
      });
    }
    // Routed now, by the commit's beforeCommit hook (routePending), and not merely because the
    // read below happens to flush first.
    repository.flush();
    for (const row of repository.unfinishedExecutions()) {
      const event = repository.getEvent(row.event_id);
      if (!event) continue;
      const last = repository.lastAttempt(row.id);
      const job = {
        executionId: row.id,
        ruleId: row.rule_id,
        targetId: row.target_id,
        retryCount: row.retry_count,
        attempt:
          row.status === 'Retry Scheduled'
            ? last + 1
            : Math.max(1, last + (row.status === 'In Progress' ? 1 : 0)),
        event: {
          id: event.id,
          data: JSON.parse(event.data) as Record<string, unknown>,
          timeMs: event.time_ms,
          publisherId: event.publisher_id,
          service: config.publisher(event.publisher_id)?.service ?? 'custom',
          eventConfigId: event.event_config_id,
          apiName: event.api_name,
        },
        version: event.version,
      };
      if (row.status === 'In Progress' && last > 0) {
        repository.finishAttempt({
          execution_id: row.id,
          attempt: last,
          finished_at: this.context.clock.now(),
          response: null,
          error: 'PortalDesk stopped during this attempt; whether the target got it is unknown.',
          outcome: last > row.retry_count ? 'failed' : 'retry',
        });
        if (last > row.retry_count) {
          repository.updateExecution(row.id, 'Failed', null, 'Interrupted on the last attempt.');
          this.worker.refreshOverallStatus(event.id);
          continue;
        }
      }
      if (row.status === 'Retry Scheduled' && row.next_attempt_at !== null) {
        this.worker.schedule(job, row.next_attempt_at);
      } else {
        this.worker.enqueue(job);
      }
    }
  }

  /** Stops the deliveries: attempts not sent yet are taken back before the engine's last commit. */
  close(): void {
    this.worker.close();
  }
}
