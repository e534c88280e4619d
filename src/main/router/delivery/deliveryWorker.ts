import type {
  ExecutionStatus,
  OverallStatus,
  PublisherStatus,
  RouterAccount,
  TargetView,
} from '../../../shared/ipc/areas/router';
import { payloadJson, type PayloadEvent } from './buildPayload';
import { buildTargetRequest, type TargetRequest } from './buildTargetRequest';
import { callWebhook, type TargetAnswer } from './callWebhook';
import type { ConfigCache } from '../engine/configCache';
import { deriveOverallStatus, type RoutePair } from '../status/deriveOverallStatus';
import { faultResponse } from './faultResponse';
import { parseRetryAfter, planNextAttempt } from './retryPolicy';
import type { RouterRepository } from '../store/routerRepository';
import { TokenPacer } from './tokenPacer';
import type { RouterClock } from '../engine/virtualClock';
import { binHeadersText } from './binHeaders';
import {
  recordedSecretForms,
  redactRecordedRequest,
  redactRecordedResponse,
  redactValues,
} from './secretHeaders';

/** Deliveries running at once across all targets; more wait in the queue. */
export const MAX_CONCURRENT_DELIVERIES = 256;

export interface DeliveryJob {
  executionId: string;
  ruleId: string;
  targetId: string;
  retryCount: number;
  attempt: number;
  event: PayloadEvent;
  version: number | null;
  /** Set once the target's rate limit gave this attempt its start time. */
  paced?: boolean;
}

/** An event with unfinished executions: its statuses kept in memory, so no delivery reads them back. */
interface TrackedEvent {
  publisherStatus: PublisherStatus;
  pairs: Map<string, RoutePair>;
  overall: OverallStatus;
}

const UNFINISHED: ReadonlySet<ExecutionStatus> = new Set([
  'In Queue',
  'In Progress',
  'Retry Scheduled',
]);

export interface DeliveryWorkerOptions {
  repository: RouterRepository;
  config: ConfigCache;
  clock: RouterClock;
  account: () => RouterAccount;
  /** Called after every change of an execution (coalesced by the caller). */
  changed: () => void;
  log?: { error(message: string, error: unknown): void };
}

/**
 * Runs executions: one attempt at a time per job, paced by each target's rate limit (in virtual
 * time), recorded as request and response, retried with backoff (or the target's Retry-After) up
 * to the rule's retry count, and re-derives the event's overall status after every change.
 */
export class DeliveryWorker {
  private readonly queue: DeliveryJob[] = [];
  private queueHead = 0;
  private inFlight = 0;
  /** In-flight jobs only waiting for virtual time (a fault target's timeout). */
  private sleeping = 0;
  private readonly pacers = new Map<string, { rate: number; pacer: TokenPacer }>();
  private readonly faultCalls = new Map<string, number>();
  private readonly cancels = new Set<() => void>();
  private idleWaiters: (() => void)[] = [];
  private readonly tracked = new Map<string, TrackedEvent>();
  /** Jobs whose attempt start is queued but not committed yet, so not sent yet. */
  private readonly awaitingCommit = new Set<DeliveryJob>();
  private closed = false;

  constructor(private readonly options: DeliveryWorkerOptions) {}

  enqueue(job: DeliveryJob): void {
    if (this.closed) return;
    this.queue.push(job);
    this.pump();
  }

  /** Remembers a routed event's executions so later changes re-derive its status in memory. */
  track(
    eventId: string,
    publisherStatus: PublisherStatus,
    pairs: readonly (RoutePair & { executionId: string })[],
    overall: OverallStatus,
  ): void {
    if (!pairs.some((pair) => pair.execution !== null && UNFINISHED.has(pair.execution))) return;
    this.tracked.set(eventId, {
      publisherStatus,
      pairs: new Map(pairs.map((pair) => [pair.executionId, pair])),
      overall,
    });
  }

  /** Records an execution's new status and re-derives the event's overall status. */
  private setExecution(eventId: string, executionId: string, status: ExecutionStatus): void {
    const { repository } = this.options;
    let tracked = this.tracked.get(eventId);
    if (!tracked) {
      // A resumed event (or one routed before this worker started): read it once.
      const event = repository.getEvent(eventId);
      if (!event) return;
      tracked = {
        publisherStatus: event.publisher_status,
        overall: event.overall_status,
        pairs: new Map(
          repository.executionStatusesOfEvent(eventId).map((row) => [
            row.id,
            {
              ruleStatus: row.rule_status,
              targetStatus: row.target_status,
              execution: row.status,
            },
          ]),
        ),
      };
      this.tracked.set(eventId, tracked);
    }
    const pair = tracked.pairs.get(executionId);
    if (pair) pair.execution = status;
    const pairs = [...tracked.pairs.values()];
    const overall = deriveOverallStatus({
      stage: 'routed',
      publisherStatus: tracked.publisherStatus,
      pairs,
    });
    if (overall !== tracked.overall) {
      tracked.overall = overall;
      repository.queue((batch) => batch.setOverallStatus(eventId, overall));
    }
    if (!pairs.some((entry) => entry.execution !== null && UNFINISHED.has(entry.execution))) {
      this.tracked.delete(eventId);
    }
  }

  /** Runs `job` once virtual time reaches `at`. */
  schedule(job: DeliveryJob, at: number): void {
    if (this.closed) return;
    const cancel = this.options.clock.at(at, () => {
      this.cancels.delete(cancel);
      this.enqueue(job);
    });
    this.cancels.add(cancel);
  }

  /** Resolves when nothing is queued or running (scheduled retries may still be pending). */
  settle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops delivering. Attempts started but not sent yet are taken back (the execution returns to
   * In Queue or Retry Scheduled), so the next run sends them instead of reporting them cut off.
   */
  close(): void {
    this.closed = true;
    const now = this.options.clock.now();
    for (const job of this.awaitingCommit) {
      this.options.repository.queue((batch) =>
        batch.cancelAttemptStart(
          job.executionId,
          job.attempt,
          job.attempt === 1
            ? { status: 'In Queue', next_attempt_at: null, note: null }
            : { status: 'Retry Scheduled', next_attempt_at: now, note: null },
        ),
      );
    }
    this.awaitingCommit.clear();
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
    this.queue.length = 0;
    this.queueHead = 0;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private isIdle(): boolean {
    return this.queue.length - this.queueHead === 0 && this.inFlight - this.sleeping === 0;
  }

  private checkIdle(): void {
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private pacerFor(target: TargetView): TokenPacer {
    const entry = this.pacers.get(target.id);
    if (entry && entry.rate === target.rateLimitPerSecond) return entry.pacer;
    const pacer = new TokenPacer(target.rateLimitPerSecond);
    this.pacers.set(target.id, { rate: target.rateLimitPerSecond, pacer });
    return pacer;
  }

  private pump(): void {
    const { clock, config } = this.options;
    while (
      !this.closed &&
      this.inFlight < MAX_CONCURRENT_DELIVERIES &&
      this.queueHead < this.queue.length
    ) {
      const job = this.queue[this.queueHead++] as DeliveryJob;
      const target = config.target(job.targetId);
      const now = clock.now();
      if (target && target.status === 'active' && !job.paced) {
        const start = this.pacerFor(target).reserve(now);
        if (start > now) {
          // The slot is this job's: it runs then without asking the pacer again.
          this.schedule({ ...job, paced: true }, start);
          continue;
        }
      }
      this.inFlight += 1;
      void this.run(job, target)
        .catch((error: unknown) => this.options.log?.error('A delivery failed unexpectedly', error))
        .finally(() => {
          this.inFlight -= 1;
          this.pump();
          this.checkIdle();
        });
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    this.checkIdle();
  }

  private async run(job: DeliveryJob, target: TargetView | undefined): Promise<void> {
    const { repository, clock, config } = this.options;
    const rule = config.rule(job.ruleId);
    const ruleStatus = rule?.status ?? 'deleted';
    const targetStatus = target?.status ?? 'deleted';
    const blocked = [ruleStatus, targetStatus].find((status) => status !== 'active');
    if (blocked) {
      // Changed since the event was routed: nothing is sent.
      const status: ExecutionStatus = blocked === 'inactive' ? 'Unprocessed' : 'Dropped';
      const which =
        ruleStatus !== 'active' ? `rule was ${ruleStatus}` : `target was ${targetStatus}`;
      const note = `The ${which} before attempt ${job.attempt}; nothing was sent.`;
      repository.queue((batch) =>
        batch.updateExecution(job.executionId, { status, next_attempt_at: null, note }),
      );
      this.setExecution(job.event.id, job.executionId, status);
      this.options.changed();
      return;
    }
    const liveTarget = target as TargetView;
    const payload = payloadJson({
      ruleId: job.ruleId,
      targetId: job.targetId,
      version: job.version,
      attempt: job.attempt,
      account: this.options.account(),
      event: job.event,
    });
    const request = buildTargetRequest(liveTarget, payload, job.event.data);
    const startedAt = clock.now();
    // Sent as built; stored without its secrets (secretHeaders.ts), as every view shows it: the
    // values its secret names hold, wherever the request or its answer holds them.
    const secretForms = recordedSecretForms(request);
    const requestText = JSON.stringify(redactRecordedRequest(request, secretForms));
    repository.queue((batch) => {
      batch.updateExecution(job.executionId, {
        status: 'In Progress',
        next_attempt_at: null,
        note: null,
      });
      batch.startAttempt({
        execution_id: job.executionId,
        attempt: job.attempt,
        started_at: startedAt,
        request: requestText,
      });
    });
    this.setExecution(job.event.id, job.executionId, 'In Progress');

    // Nothing is sent before its attempt is stored: after a crash every sent request has a record.
    this.awaitingCommit.add(job);
    try {
      await repository.committed();
    } catch (error) {
      this.options.log?.error(
        `Attempt ${job.attempt} of execution ${job.executionId} could not be stored, so it was not sent`,
        error,
      );
      return;
    } finally {
      this.awaitingCommit.delete(job);
    }
    if (this.closed) return;

    const answer = await this.call(liveTarget, request, secretForms);
    if (this.closed) return;
    const finishedAt = clock.now();
    const status = answer.response?.status ?? null;
    const retryAfterMs = parseRetryAfter(answer.response?.headers['retry-after'], finishedAt);
    const next = planNextAttempt({
      attempt: job.attempt,
      retryCount: job.retryCount,
      status,
      retryAfterMs,
    });
    const outcome = next.verdict;
    const nextAt = next.verdict === 'retry' ? finishedAt + next.delayMs : null;
    const executionStatus: ExecutionStatus =
      next.verdict === 'success'
        ? 'Success'
        : next.verdict === 'failed'
          ? 'Failed'
          : 'Retry Scheduled';
    const note =
      next.verdict === 'failed' &&
      status !== null &&
      status < 500 &&
      status !== 408 &&
      status !== 429
        ? `The target answered ${status}, which is not retried.`
        : next.verdict === 'failed'
          ? `Attempt ${job.attempt} failed and no retries are left (retry count ${job.retryCount}).`
          : null;
    const responseText = answer.response
      ? JSON.stringify(redactRecordedResponse(answer.response, secretForms))
      : null;
    repository.queue((batch) => {
      batch.finishAttempt({
        execution_id: job.executionId,
        attempt: job.attempt,
        finished_at: finishedAt,
        response: responseText,
        // A failure's words may quote the address.
        error: answer.error === null ? null : redactValues(answer.error, secretForms),
        outcome,
      });
      batch.updateExecution(job.executionId, {
        status: executionStatus,
        next_attempt_at: nextAt,
        note,
      });
    });
    this.setExecution(job.event.id, job.executionId, executionStatus);
    if (nextAt !== null) this.schedule({ ...job, attempt: job.attempt + 1, paced: false }, nextAt);
    this.options.changed();
  }

  private async call(
    target: TargetView,
    request: TargetRequest,
    secretForms: readonly string[],
  ): Promise<TargetAnswer> {
    const { repository, clock } = this.options;
    if (target.kind === 'webhook') return callWebhook(request, target.timeoutMs);
    if (target.kind === 'request_bin') {
      // A bin is still a record the router keeps and shows: its secrets are redacted like an
      // attempt's.
      const shown = redactRecordedRequest(request, secretForms);
      const entry = {
        target_id: target.id,
        received_at: clock.now(),
        method: request.method,
        url: shown.url,
        // Bounded (binHeaders.ts): the attempt's own record keeps the whole request.
        headers: binHeadersText(shown.headers),
        body: shown.body,
      };
      repository.queue((batch) => batch.insertBinEntry(entry));
      return {
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: '{"ok":true}',
        },
        error: null,
      };
    }
    const call = this.faultCalls.get(target.id) ?? 0;
    this.faultCalls.set(target.id, call + 1);
    const answer = faultResponse(
      target.fault ?? { mode: 'always_500', failureRate: 1, retryAfterSeconds: 0 },
      call,
    );
    if (answer.kind === 'response') {
      return {
        response: { status: answer.status, headers: answer.headers, body: answer.body },
        error: null,
      };
    }
    // A fault target that never answers: the attempt times out after the target's timeout.
    this.sleeping += 1;
    this.checkIdle();
    try {
      await new Promise<void>((resolve) => {
        const cancel = clock.at(clock.now() + target.timeoutMs, () => {
          this.cancels.delete(cancel);
          resolve();
        });
        this.cancels.add(() => {
          cancel();
          resolve();
        });
      });
    } finally {
      this.sleeping -= 1;
    }
    return {
      response: null,
      error: `No answer within the target's timeout of ${target.timeoutMs} ms.`,
    };
  }

  /** Re-derives and stores an event's overall status from its executions. */
  refreshOverallStatus(eventId: string): void {
    const { repository } = this.options;
    const event = repository.getEvent(eventId);
    if (!event) return;
    const status = deriveOverallStatus({
      stage: event.stage,
      publisherStatus: event.publisher_status,
      pairs: repository.executionStatusesOfEvent(eventId).map((row) => ({
        ruleStatus: row.rule_status,
        targetStatus: row.target_status,
        execution: row.status,
      })),
    });
    if (status !== event.overall_status) repository.setOverallStatus(eventId, status);
  }
}
