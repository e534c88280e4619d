import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  CAPTURE_VALIDITY_MS,
  FaultSettings,
  MAX_FILTER_DEPTH,
  MAX_RULE_CONDITIONS,
  MAX_SCHEMA_KEYS,
  RouterAccount,
  RuleInput,
  TargetInput,
  type AttemptView,
  type BinEntryView,
  type EventConfigView,
  type EventDetailView,
  type EventListQuery,
  type EventSummaryView,
  type ExecutionView,
  type PublisherStatus,
  type PublisherView,
  type RouterOverview,
  type RuleExplanation,
  type RuleStatus,
  type RuleView,
  type SchemaVersionView,
  type TargetStatus,
  type TargetView,
} from '../../../shared/contracts/router';
import { apiKeyHint, apiKeyMatches, generateApiKey, hashApiKey } from './apiKeys';
import type { PayloadEvent } from '../delivery/buildPayload';
import { ConfigCache } from './configCache';
import {
  PLATFORM_PUBLISHERS,
  SUITE_SCOPES,
  SUITE_SERVICE,
  suiteEventApiName,
  type PlatformEventName,
  type PlatformPublisherKey,
  type SuiteScope,
} from './defaultPublishers';
import type { CompareContext } from '../filter/compareValue';
import type { CommitSink } from '../store/groupCommit';
import { DeliveryWorker, type DeliveryJob } from '../delivery/deliveryWorker';
import { deriveOverallStatus, type RoutePair } from '../status/deriveOverallStatus';
import { filterSize } from '../filter/filterDepth';
import { mergeSample, snapshotToSchema } from '../schema/inferenceSnapshot';
import { planRoutes } from '../filter/planRoutes';
import { RouterInputError, RouterNotFoundError } from './routerErrors';
import { RouterIds } from './routerIds';
import { RouterRepository } from '../store/routerRepository';
import type { EventConfigRow, EventRow, ExecutionRow, PublisherRow } from '../store/routerRows';
import { sampleProblem } from '../schema/sampleProblem';
import { schemaKeyCount } from '../schema/schemaKeyCount';
import {
  applySchemaEdits,
  readStoredEdits,
  schemaEditProblem,
  type SchemaEdit,
} from '../schema/schemaEdits';
import { schemaPaths } from '../schema/schemaPaths';
import { SchemaValidator } from '../schema/schemaValidator';
import { VirtualClock, type RouterClock } from './virtualClock';

export interface RouterChange {
  config: boolean;
  events: boolean;
}

export interface RouterEngineOptions {
  db: Database.Database;
  clock?: RouterClock;
  /**
   * Called on every change, at once: the app's event hub folds a burst of them into one push
   * (startRouter.ts, src/main/bridge/pushRates.ts).
   */
  onChange?: (change: RouterChange) => void;
  log?: { error(message: string, error: unknown): void };
  /** Where group commits go instead of `db` (the headless command's writer thread). */
  commitSink?: (inline: CommitSink) => CommitSink;
}

/** The account until the user sets one: ids in the spec's long numeric form. */
const DEFAULT_ACCOUNT: RouterAccount = {
  org_id: '100000000001',
  project: { name: 'PortalDesk sandbox', environment: 'development', id: '100000000002' },
  time_zone: 'UTC',
};

interface PendingRoute {
  id: string;
  publisher: PublisherRow;
  config: EventConfigRow;
  data: Record<string, unknown>;
  timeMs: number;
  version: number | null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The event-router sandbox (spec 000): publishers and their events with schemas, rules, targets,
 * and every event's routing, deliveries and overall status, persisted in SQLite. The app's engine
 * and the headless command each run one; the ingress (HTTP) and the admin API are shells around it.
 */
export class RouterEngine {
  readonly clock: RouterClock;
  private readonly repository: RouterRepository;
  private readonly config: ConfigCache;
  private readonly worker: DeliveryWorker;
  private readonly validator = new SchemaValidator();
  private readonly ids = new RouterIds();
  private readonly pending: PendingRoute[] = [];
  private accountCache: RouterAccount | null = null;
  private closed = false;
  /** The ingress address once a shell listens (set by RouterIngress). */
  ingressUrl: string | null = null;

  constructor(private readonly options: RouterEngineOptions) {
    this.clock = options.clock ?? new VirtualClock();
    this.repository = new RouterRepository(options.db, {
      onCommitError: (error) =>
        options.log?.error('The router could not store events or deliveries', error),
      ...(options.commitSink ? { sink: options.commitSink } : {}),
    });
    this.repository.beforeCommit(() => this.routePending());
    this.config = new ConfigCache(this.repository);
    this.worker = new DeliveryWorker({
      repository: this.repository,
      config: this.config,
      clock: this.clock,
      account: () => this.account(),
      changed: () => this.changed(false, true),
      ...(options.log ? { log: options.log } : {}),
    });
    this.ensurePlatformPublishers();
    this.resume();
  }

  // -----------------------------------------------------------------------------------------
  // Account

  account(): RouterAccount {
    if (!this.accountCache) {
      const stored = RouterAccount.safeParse(this.repository.getAccount());
      this.accountCache = stored.success ? stored.data : DEFAULT_ACCOUNT;
    }
    return this.accountCache;
  }

  setAccount(account: RouterAccount): RouterAccount {
    const parsed = RouterAccount.parse(account);
    if (!isValidTimeZone(parsed.time_zone)) {
      throw new RouterInputError(
        `"${parsed.time_zone}" is not a time zone this system knows; the account was not changed. Use an IANA name such as Europe/Berlin or UTC.`,
      );
    }
    this.repository.putAccount(parsed);
    this.accountCache = parsed;
    this.changed(true, false);
    return parsed;
  }

  // -----------------------------------------------------------------------------------------
  // Publishers and their events

  overview(): RouterOverview {
    return {
      account: this.account(),
      ingressUrl: this.ingressUrl,
      clock: { nowMs: this.clock.now(), scale: this.clock.scale },
      publishers: this.config.publishers().map((row) => this.publisherView(row)),
      rules: this.config.rules(),
      targets: [...this.config.targets().values()],
    };
  }

  private publisherView(row: PublisherRow): PublisherView {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      service: row.service,
      status: row.status,
      apiKeyHint: row.api_key_hint,
      events: this.config
        .eventConfigs()
        .filter((config) => config.publisher_id === row.id)
        .map((config) => this.eventConfigView(config)),
    };
  }

  private eventConfigView(row: EventConfigRow): EventConfigView {
    const schema = this.config.latestSchema(row.id);
    return {
      id: row.id,
      publisherId: row.publisher_id,
      apiName: row.api_name,
      schemaVersion: schema?.version ?? null,
      sample: row.sample === null ? null : (JSON.parse(row.sample) as unknown),
      paths: schema ? schemaPaths(schema.schema) : [],
    };
  }

  publisher(id: string): PublisherView {
    const row = this.config.publisher(id);
    if (!row) throw new RouterNotFoundError(`No publisher ${id} exists in the router sandbox.`);
    return this.publisherView(row);
  }

  /**
   * A custom publisher with a fresh API key, returned this once (only its hash is stored). The
   * headless config passes its own id and key.
   */
  createPublisher(input: {
    name: string;
    id?: string;
    apiKey?: string;
    status?: PublisherStatus;
    kind?: PublisherRow['kind'];
    service?: string;
  }): { publisher: PublisherView; apiKey: string } {
    const apiKey = input.apiKey ?? generateApiKey();
    const id = input.id ?? this.ids.next();
    const existing = this.repository.getPublisher(id);
    this.repository.upsertPublisher({
      id,
      name: input.name,
      kind: input.kind ?? 'custom',
      service: input.service ?? 'custom',
      status: input.status ?? 'active',
      api_key_hash: hashApiKey(apiKey),
      api_key_hint: apiKeyHint(apiKey),
      system_key: existing?.system_key ?? null,
      created_at: existing?.created_at ?? Date.now(),
    });
    this.changed(true, false);
    return { publisher: this.publisher(id), apiKey };
  }

  rotateApiKey(publisherId: string): string {
    const row = this.config.publisher(publisherId);
    if (!row) throw new RouterNotFoundError(`No publisher ${publisherId}; no key was changed.`);
    if (row.kind !== 'custom') {
      throw new RouterInputError(
        `${row.name} is a default publisher: the platform authorizes its events, so it has no API key.`,
      );
    }
    const apiKey = generateApiKey();
    this.repository.setPublisherKey(publisherId, hashApiKey(apiKey), apiKeyHint(apiKey));
    this.changed(true, false);
    return apiKey;
  }

  setPublisherStatus(id: string, status: PublisherStatus): PublisherView {
    if (!this.config.publisher(id)) {
      throw new RouterNotFoundError(`No publisher ${id}; nothing was changed.`);
    }
    this.repository.setPublisherStatus(id, status);
    this.changed(true, false);
    return this.publisher(id);
  }

  createEvent(input: {
    publisherId: string;
    apiName: string;
    sample?: unknown;
    id?: string;
  }): EventConfigView {
    const publisher = this.config.publisher(input.publisherId);
    if (!publisher) {
      throw new RouterNotFoundError(
        `No publisher ${input.publisherId}; the event was not created.`,
      );
    }
    if (input.sample !== undefined && !isPlainObject(input.sample)) {
      throw new RouterInputError(
        'A sample must be a JSON object (the event\'s "data"); the event was not created.',
      );
    }
    const existing = this.config.eventConfigByName(input.publisherId, input.apiName);
    if (existing && existing.id !== input.id) {
      throw new RouterInputError(
        `${publisher.name} already has an event named ${input.apiName}; choose another API name.`,
      );
    }
    const id = input.id ?? this.ids.next();
    this.repository.transaction(() => {
      if (!this.repository.getEventConfig(id)) {
        this.repository.insertEventConfig({
          id,
          publisherId: input.publisherId,
          apiName: input.apiName,
          sample: null,
          createdAt: Date.now(),
        });
      }
      if (input.sample !== undefined) this.writeSample(id, input.sample, false, 'sample');
    });
    this.changed(true, false);
    return this.eventConfigView(this.requireEventConfig(id));
  }

  private requireEventConfig(id: string): EventConfigRow {
    this.config.invalidate();
    const row = this.config.eventConfig(id);
    if (!row) throw new RouterNotFoundError(`No event ${id} exists in the router sandbox.`);
    return row;
  }

  // -----------------------------------------------------------------------------------------
  // Schemas

  schemaVersions(eventConfigId: string): SchemaVersionView[] {
    this.requireEventConfig(eventConfigId);
    return this.repository.listSchemaVersions(eventConfigId).map((row) => ({
      version: row.version,
      schema: JSON.parse(row.schema) as Record<string, unknown>,
      source: row.source,
      createdAt: row.created_at,
    }));
  }

  /** A new schema version from a sample (merged into the inference so far when `merge`). */
  setSample(
    eventConfigId: string,
    sample: unknown,
    merge: boolean,
    source: 'sample' | 'capture' | 'publisher' = 'sample',
  ): SchemaVersionView {
    this.requireEventConfig(eventConfigId);
    if (!isPlainObject(sample)) {
      throw new RouterInputError(
        'A sample must be a JSON object (the event\'s "data"); the schema was not changed.',
      );
    }
    this.repository.transaction(() => this.writeSample(eventConfigId, sample, merge, source));
    this.changed(true, false);
    return this.schemaVersions(eventConfigId)[0] as SchemaVersionView;
  }

  private writeSample(
    id: string,
    sample: unknown,
    merge: boolean,
    source: 'sample' | 'capture' | 'publisher',
  ): boolean {
    const row = this.repository.getEventConfig(id) as EventConfigRow;
    const inference = mergeSample(sample, merge ? row.inference : null);
    const edits = this.storedEdits(row);
    this.repository.updateSchemaState(id, JSON.stringify(sample), inference, edits);
    return this.writeSchemaVersion(
      id,
      applySchemaEdits(snapshotToSchema(inference), edits),
      source,
    );
  }

  /**
   * The event's hand edits, without any stored before issue 14 that would write through
   * `__proto__` (they are left out of the next write of the row, so this is reported once).
   */
  private storedEdits(row: EventConfigRow): SchemaEdit[] {
    const { edits, dropped } = readStoredEdits(row.edits);
    if (dropped > 0) {
      this.options.log?.error(
        `Dropped ${dropped} stored hand edit(s) of event ${row.id}'s schema: their key paths named "__proto__", which would have changed every object of the engine. The other edits were kept.`,
        null,
      );
    }
    return edits;
  }

  /** Stores a schema as the next version unless it equals the current one. */
  private writeSchemaVersion(
    id: string,
    schema: Record<string, unknown>,
    source: SchemaVersionView['source'],
  ): boolean {
    if (schemaKeyCount(schema, MAX_SCHEMA_KEYS) > MAX_SCHEMA_KEYS) {
      throw new RouterInputError(
        `The schema would declare more than ${MAX_SCHEMA_KEYS} keys (nested ones included), the most a schema may. The schema was not changed; remove keys you do not route on.`,
      );
    }
    const latest = this.repository.latestSchema(id);
    const text = JSON.stringify(schema);
    if (latest && latest.schema === text) return false;
    this.repository.insertSchemaVersion({
      eventConfigId: id,
      version: (latest?.version ?? 0) + 1,
      schema: text,
      source,
      createdAt: this.clock.now(),
    });
    this.config.invalidate();
    return true;
  }

  editSchemaKeys(
    eventConfigId: string,
    add: readonly {
      path: string;
      type: Extract<SchemaEdit, { op: 'add' }>['type'];
      required: boolean;
    }[],
    remove: readonly string[],
  ): SchemaVersionView {
    const row = this.requireEventConfig(eventConfigId);
    if (add.length === 0 && remove.length === 0) {
      throw new RouterInputError(
        'Name at least one key to add or remove; the schema was not changed.',
      );
    }
    const problems = [...remove, ...add.map((key) => key.path)].flatMap(
      (path) => schemaEditProblem(path) ?? [],
    );
    if (problems.length > 0) {
      throw new RouterInputError(`${problems.join('; ')}. The schema was not changed.`);
    }
    const edits: SchemaEdit[] = [
      ...this.storedEdits(row),
      ...remove.map((path): SchemaEdit => ({ op: 'remove', path })),
      ...add.map((key): SchemaEdit => ({ op: 'add', ...key })),
    ];
    const base = row.inference
      ? snapshotToSchema(row.inference)
      : { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} };
    this.repository.transaction(() => {
      this.repository.updateSchemaState(eventConfigId, null, row.inference, edits);
      this.writeSchemaVersion(eventConfigId, applySchemaEdits(base, edits), 'edit');
    });
    this.changed(true, false);
    return this.schemaVersions(eventConfigId)[0] as SchemaVersionView;
  }

  validateSample(
    eventConfigId: string,
    sample: unknown,
  ): { valid: boolean; version: number | null; errors: string[] } {
    this.requireEventConfig(eventConfigId);
    // The same bounds as a sample that becomes a schema: validating a larger one would hold the
    // engine's thread for as long as inferring it would have.
    const problem = sampleProblem(sample);
    if (problem) throw new RouterInputError(`${problem}. Nothing was validated.`);
    const schema = this.config.latestSchema(eventConfigId);
    if (!schema) return { valid: true, version: null, errors: [] };
    const errors = this.validator.validate(
      schema.schema,
      sample,
      `${eventConfigId}/${schema.version}`,
    );
    return { valid: errors.length === 0, version: schema.version, errors };
  }

  /** A capture token valid for 15 (virtual) minutes; the ingress turns it into a URL. */
  startCapture(eventConfigId: string): { token: string; expiresAt: number; nowMs: number } {
    this.requireEventConfig(eventConfigId);
    const token = randomBytes(16).toString('hex');
    const nowMs = this.clock.now();
    const expiresAt = nowMs + CAPTURE_VALIDITY_MS;
    this.repository.insertCapture({ token, eventConfigId, expiresAt });
    return { token, expiresAt, nowMs };
  }

  /** What the capture URL answers to a posted body. */
  capture(token: string, body: unknown): { status: number; body: Record<string, unknown> } {
    const row = this.repository.getCapture(token);
    if (!row) {
      return {
        status: 404,
        body: { error: "No such capture URL. Start a capture from the event's schema to get one." },
      };
    }
    const now = this.clock.now();
    if (now >= row.expires_at) {
      return {
        status: 410,
        body: {
          error: `This capture URL expired at ${new Date(row.expires_at).toISOString()} (capture URLs are valid for 15 minutes). Nothing was captured; start a new capture from the event's schema to get a fresh URL.`,
        },
      };
    }
    if (!isPlainObject(body)) {
      return {
        status: 400,
        body: {
          error:
            'The captured body must be a JSON object (the event\'s "data"). Nothing was captured.',
        },
      };
    }
    const hasInference = Boolean(this.repository.getEventConfig(row.event_config_id)?.inference);
    try {
      this.repository.transaction(() => {
        this.writeSample(row.event_config_id, body, hasInference, 'capture');
        this.repository.countCapture(token);
      });
    } catch (error) {
      if (!(error instanceof RouterInputError)) throw error;
      return { status: 400, body: { error: `${error.message} Nothing was captured.` } };
    }
    this.changed(true, false);
    const latest = this.config.latestSchema(row.event_config_id);
    return {
      status: 200,
      body: {
        captured: true,
        version: latest?.version ?? null,
        expires_in_ms: Math.max(0, row.expires_at - now),
      },
    };
  }

  // -----------------------------------------------------------------------------------------
  // Rules and targets

  saveTarget(input: TargetInput): TargetView {
    const parsed = TargetInput.safeParse(input);
    if (!parsed.success) {
      throw new RouterInputError(
        `The target was not saved: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'target'}: ${i.message}`).join('; ')}.`,
      );
    }
    const target = parsed.data;
    const view: TargetView = {
      id: target.id ?? this.ids.next(),
      name: target.name,
      kind: target.kind,
      status: target.status,
      url: target.kind === 'webhook' ? target.url : null,
      method: target.method,
      headers: target.headers,
      query: target.query,
      rateLimitPerSecond: target.rateLimitPerSecond,
      timeoutMs: target.timeoutMs,
      fault: target.kind === 'fault' ? FaultSettings.parse(target.fault) : null,
    };
    this.repository.upsertTarget(view, this.clock.now());
    this.changed(true, false);
    return view;
  }

  setTargetStatus(id: string, status: TargetStatus): TargetView {
    if (!this.config.target(id))
      throw new RouterNotFoundError(`No target ${id}; nothing was changed.`);
    this.repository.setTargetStatus(id, status, this.clock.now());
    this.changed(true, false);
    return this.config.target(id) as TargetView;
  }

  saveRule(input: RuleInput): RuleView {
    const parsed = RuleInput.safeParse(input);
    if (!parsed.success) {
      throw new RouterInputError(
        `The rule was not saved: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'rule'}: ${i.message}`).join('; ')}.`,
      );
    }
    const rule = parsed.data;
    const problems: string[] = [];
    for (const id of rule.eventConfigIds) {
      if (!this.config.eventConfig(id)) problems.push(`no event ${id}`);
    }
    for (const id of rule.targetIds) {
      if (!this.config.target(id)) problems.push(`no target ${id}`);
    }
    if (new Set(rule.targetIds).size !== rule.targetIds.length)
      problems.push('a target is listed twice');
    if (rule.filter) {
      const size = filterSize(rule.filter);
      if (size.depth > MAX_FILTER_DEPTH)
        problems.push(`groups nest at most ${MAX_FILTER_DEPTH} deep`);
      if (size.conditions > MAX_RULE_CONDITIONS) {
        problems.push(`a rule has at most ${MAX_RULE_CONDITIONS} conditions`);
      }
    }
    if (problems.length > 0)
      throw new RouterInputError(`The rule was not saved: ${problems.join('; ')}.`);
    const view: RuleView = {
      id: rule.id ?? this.ids.next(),
      name: rule.name,
      status: rule.status,
      retryCount: rule.retryCount,
      eventConfigIds: [...new Set(rule.eventConfigIds)].sort(),
      filter: rule.filter,
      targetIds: rule.targetIds,
      updatedAt: this.clock.now(),
    };
    this.repository.transaction(() => this.repository.saveRule(view));
    this.changed(true, false);
    return view;
  }

  setRuleStatus(id: string, status: RuleStatus): RuleView {
    if (!this.config.rule(id)) throw new RouterNotFoundError(`No rule ${id}; nothing was changed.`);
    this.repository.setRuleStatus(id, status, this.clock.now());
    this.changed(true, false);
    return this.config.rule(id) as RuleView;
  }

  // -----------------------------------------------------------------------------------------
  // Receiving events

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
    const publisher = this.config.publisher(publisherId);
    if (!publisher)
      throw new RouterNotFoundError(`No publisher ${publisherId}; the event was not recorded.`);
    const config = this.config.eventConfigByName(publisherId, eventApiName);
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
    if (publisher.kind !== 'custom') {
      // Default publishers need no schema set-up (spec 000): their schema follows what they send.
      try {
        const changed = this.repository.transaction(() =>
          this.writeSample(config.id, data, config.inference !== null, 'publisher'),
        );
        if (changed) this.changed(true, false);
      } catch (error) {
        if (!(error instanceof RouterInputError)) throw error;
        // The event is still recorded and routed; only its schema stays as it was.
        this.options.log?.error(
          `The schema of ${publisher.name}'s ${eventApiName} was not updated from event data`,
          error,
        );
      }
    }
    const schema = this.config.latestSchema(config.id);
    const errors = schema
      ? this.validator.validate(schema.schema, data, `${config.id}/${schema.version}`)
      : [];
    const id = this.ids.next();
    const timeMs = Math.trunc(this.clock.now());
    const inactive = publisher.status === 'inactive';
    const row = {
      id,
      publisher_id: publisherId,
      event_config_id: config.id,
      api_name: eventApiName,
      time_ms: timeMs,
      data: JSON.stringify(data),
      version: schema?.version ?? null,
      // An inactive publisher's event is recorded, not routed (spec: Unprocessed).
      stage: inactive ? 'routed' : 'received',
      publisher_status: publisher.status,
      overall_status: inactive ? 'Unprocessed' : 'Received',
      schema_errors: JSON.stringify(errors),
      redelivery_of: redeliveryOf,
    } as const;
    this.repository.queue((batch) => batch.insertEvent(row));
    // Routed just before the commit that stores it, so the event is written once, already routed.
    if (!inactive) {
      this.pending.push({ id, publisher, config, data, timeMs, version: schema?.version ?? null });
    }
    this.changed(false, true);
    return id;
  }

  /**
   * Settles once every event published so far is stored (committed); the ingress answers 202 only
   * then. Rejects if the commit failed.
   */
  stored(): Promise<void> {
    return this.repository.committed();
  }

  /** The ingress's check of a custom publisher's key; null when accepted, else the HTTP answer. */
  authenticate(
    publisherId: string,
    apiKey: string | undefined,
  ): { status: number; error: string } | null {
    const publisher = this.config.publisher(publisherId);
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
    return this.config.eventConfigByName(publisherId, apiName) !== undefined;
  }

  /**
   * Plans every pending event's executions, in the group commit that stores the event (a hook run
   * before each commit), and hands the deliveries to the worker, which sends them once stored.
   */
  private routePending(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0);
    const targets = this.config.targets();
    const context = { nowMs: this.clock.now(), timeZone: this.account().time_zone };
    const jobs: DeliveryJob[] = [];
    for (const event of batch) {
      try {
        this.routeOne(event, targets, context, jobs);
      } catch (error) {
        // Stays Received; the next start routes it again.
        this.options.log?.error(`Event ${event.id} could not be routed`, error);
      }
    }
    for (const job of jobs) this.worker.enqueue(job);
    this.changed(false, true);
  }

  private routeOne(
    event: PendingRoute,
    targets: ReadonlyMap<string, TargetView>,
    context: CompareContext,
    jobs: DeliveryJob[],
  ): void {
    const plan = planRoutes({
      data: event.data,
      rules: this.config.rulesFor(event.config.id),
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
      const executionId = this.ids.next();
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
    this.repository.queue((writes) => {
      for (const execution of executions) writes.insertExecution(execution);
      writes.setOverallStatus(event.id, status, true);
    });
    this.worker.track(event.id, event.publisher.status, tracked, status);
  }

  /** Resolves once every received event is routed and no delivery is queued or running. */
  async settle(): Promise<void> {
    for (;;) {
      if (this.pending.length > 0) await this.repository.committed();
      await this.worker.settle();
      if (this.pending.length === 0) return;
    }
  }

  // -----------------------------------------------------------------------------------------
  // Default publishers: the hooks other parts of PortalDesk call.

  private ensurePlatformPublishers(): void {
    for (const [key, spec] of Object.entries(PLATFORM_PUBLISHERS)) {
      this.ensureDefaultPublisher(
        `platform:${key}`,
        spec.name,
        'platform',
        spec.service,
        spec.events,
      );
    }
  }

  private ensureDefaultPublisher(
    systemKey: string,
    name: string,
    kind: 'platform' | 'suite',
    service: string,
    events: readonly string[],
  ): PublisherRow {
    let row = this.repository.getPublisherBySystemKey(systemKey);
    const missing = events.filter(
      (apiName) => !row || !this.repository.getEventConfigByName(row.id, apiName),
    );
    if (row && missing.length === 0) return row;
    this.repository.transaction(() => {
      if (!row) {
        row = {
          id: this.ids.next(),
          name,
          kind,
          service,
          status: 'active',
          api_key_hash: null,
          api_key_hint: null,
          system_key: systemKey,
          created_at: Date.now(),
        };
        this.repository.upsertPublisher(row);
      }
      for (const apiName of missing) {
        this.repository.insertEventConfig({
          id: this.ids.next(),
          publisherId: row.id,
          apiName,
          sample: null,
          createdAt: Date.now(),
        });
      }
    });
    this.config.invalidate();
    this.changed(true, false);
    return row as PublisherRow;
  }

  /** Raises a platform-service event (sync runs, backup downloads, sign-in/refresh/sign-out). */
  raisePlatformEvent<K extends PlatformPublisherKey>(
    publisher: K,
    event: PlatformEventName<K>,
    data: Record<string, unknown>,
  ): string {
    const row = this.repository.getPublisherBySystemKey(`platform:${publisher}`);
    if (!row) throw new Error(`The platform publisher ${publisher} is missing.`);
    return this.publish(row.id, event, data);
  }

  /** The suite publisher of a signed-in portal, with Create…Reject events per module. */
  ensureSuitePublisher(portal: {
    id: string;
    name: string;
    modules: readonly string[];
  }): PublisherView {
    const events = portal.modules.flatMap((module) =>
      SUITE_SCOPES.map((scope) => suiteEventApiName(module, scope)),
    );
    const row = this.ensureDefaultPublisher(
      `suite:${portal.id}`,
      `${portal.name} (portal ${portal.id})`,
      'suite',
      SUITE_SERVICE,
      events,
    );
    return this.publisher(row.id);
  }

  /** Raises a suite event: a change sync pulled or the outbox replayed, for a module and scope. */
  raiseSuiteEvent(
    portalId: string,
    moduleApiName: string,
    scope: SuiteScope,
    data: Record<string, unknown>,
  ): string {
    const row = this.repository.getPublisherBySystemKey(`suite:${portalId}`);
    if (!row) {
      throw new RouterNotFoundError(
        `Portal ${portalId} has no suite publisher yet; call ensureSuitePublisher first.`,
      );
    }
    return this.publish(row.id, suiteEventApiName(moduleApiName, scope), data);
  }

  // -----------------------------------------------------------------------------------------
  // Reading events

  listEvents(query: EventListQuery): { total: number; rows: EventSummaryView[] } {
    const { total, rows } = this.repository.listEvents({
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
    const event = this.repository.getEvent(id);
    if (!event) throw new RouterNotFoundError(`No event ${id} was received by the router sandbox.`);
    const attempts = new Map<string, AttemptView[]>();
    for (const row of this.repository.attemptsOfEvent(id)) {
      const list = attempts.get(row.execution_id) ?? [];
      list.push({
        attempt: row.attempt,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        request: JSON.parse(row.request) as AttemptView['request'],
        response:
          row.response === null ? null : (JSON.parse(row.response) as AttemptView['response']),
        error: row.error,
        outcome: row.outcome,
      });
      attempts.set(row.execution_id, list);
    }
    const executions: ExecutionView[] = this.repository.executionsOfEvent(id).map((row) => ({
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
      rules: this.config.rulesFor(event.event_config_id),
      targets: this.config.targets(),
      context: { nowMs: event.time_ms, timeZone: this.account().time_zone },
      explain: true,
      eventTimeMs: event.time_ms,
    }).explanation;
  }

  /** Routes a stored event's data again as a new event, linked to the original. */
  redeliver(id: string): string {
    const event = this.repository.getEvent(id);
    if (!event) throw new RouterNotFoundError(`No event ${id}; nothing was redelivered.`);
    return this.publish(event.publisher_id, event.api_name, JSON.parse(event.data), id);
  }

  /** Publishes the event's stored sample as a new event. */
  sendTestEvent(eventConfigId: string): string {
    const config = this.requireEventConfig(eventConfigId);
    if (config.sample === null) {
      throw new RouterInputError(
        `${config.api_name} has no sample yet; add one under its schema (or capture one), then send the test event.`,
      );
    }
    return this.publish(config.publisher_id, config.api_name, JSON.parse(config.sample));
  }

  requestBin(targetId: string, limit = 100): BinEntryView[] {
    const target = this.config.target(targetId);
    if (!target) throw new RouterNotFoundError(`No target ${targetId}.`);
    return this.repository.listBinEntries(targetId, limit).map((row) => ({
      id: row.id,
      targetId: row.target_id,
      receivedAt: row.received_at,
      method: row.method,
      url: row.url,
      headers: JSON.parse(row.headers) as Record<string, string>,
      body: row.body,
    }));
  }

  // -----------------------------------------------------------------------------------------
  // Life cycle

  /** Picks up where a previous run stopped: unrouted events are routed, unfinished deliveries resume. */
  private resume(): void {
    // Events accepted (202) but not yet matched against the rules when the process stopped.
    for (const event of this.repository.unroutedEvents()) {
      const publisher = this.config.publisher(event.publisher_id);
      const config = this.config.eventConfig(event.event_config_id);
      if (!publisher || !config) continue;
      this.pending.push({
        id: event.id,
        publisher,
        config,
        data: JSON.parse(event.data) as Record<string, unknown>,
        timeMs: event.time_ms,
        version: event.version,
      });
    }
    // Routed now, by the commit's beforeCommit hook (routePending), and not merely because the
    // read below happens to flush first.
    this.repository.flush();
    for (const row of this.repository.unfinishedExecutions()) {
      const event = this.repository.getEvent(row.event_id);
      if (!event) continue;
      const last = this.repository.lastAttempt(row.id);
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
          service: this.config.publisher(event.publisher_id)?.service ?? 'custom',
          eventConfigId: event.event_config_id,
          apiName: event.api_name,
        },
        version: event.version,
      };
      if (row.status === 'In Progress' && last > 0) {
        this.repository.finishAttempt({
          execution_id: row.id,
          attempt: last,
          finished_at: this.clock.now(),
          response: null,
          error: 'PortalDesk stopped during this attempt; whether the target got it is unknown.',
          outcome: last > row.retry_count ? 'failed' : 'retry',
        });
        if (last > row.retry_count) {
          this.repository.updateExecution(
            row.id,
            'Failed',
            null,
            'Interrupted on the last attempt.',
          );
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

  private changed(config: boolean, events: boolean): void {
    if (config) this.config.invalidate();
    if (this.closed) return;
    this.options.onChange?.({ config, events });
  }

  close(): void {
    this.closed = true;
    // The worker first: attempts not sent yet are taken back before the last commit.
    this.worker.close();
    try {
      this.repository.flush();
    } catch (error) {
      this.options.log?.error('The router could not store its last changes while closing', error);
    }
    this.clock.close();
  }
}

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
