import type Database from 'better-sqlite3';
import type {
  BinEntryView,
  EventConfigView,
  EventDetailView,
  EventListQuery,
  EventSummaryView,
  PublisherStatus,
  PublisherView,
  RouterAccount,
  RouterOverview,
  RuleInput,
  RuleStatus,
  RuleView,
  SchemaVersionView,
  TargetInput,
  TargetStatus,
  TargetView,
} from '../../../shared/ipc/areas/router';
import { BuiltInPublishers, type SuitePortal } from './builtInPublishers';
import { ConfigCache } from './configCache';
import type { PlatformEventName, PlatformPublisherKey } from './defaultPublishers';
import { EventIntake } from './eventIntake';
import { EventSchemas, type SchemaKeyAddition } from './eventSchemas';
import type { RequiredChoice } from '../schema/schemaEdits';
import type { CommitSink } from '../store/groupCommit';
import {
  RouterConfiguration,
  type EventConfigInput,
  type PublisherInput,
} from './routerConfiguration';
import type { RouterContext, RouterLog } from './routerContext';
import { RouterIds } from './routerIds';
import { RouterQueries } from './routerQueries';
import { RouterRepository } from '../store/routerRepository';
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
  log?: RouterLog;
  /** Where group commits go instead of `db` (the headless command's writer thread). */
  commitSink?: (inline: CommitSink) => CommitSink;
}

/**
 * The event-router sandbox (spec 000): publishers and their events with schemas, rules, targets,
 * and every event's routing, deliveries and overall status, persisted in SQLite. The app's engine
 * and the headless command each run one; the ingress (HTTP) and the admin API are shells around it.
 *
 * The one class the rest of the app uses. It makes what its parts share (routerContext.ts: the
 * repository, the configuration cache, the clock, the ids), composes the parts and delegates to
 * them: configuration (routerConfiguration.ts), schemas (eventSchemas.ts), events in and routed
 * (eventIntake.ts, which owns the delivery worker), reading them back (routerQueries.ts) and the
 * default publishers (builtInPublishers.ts). It owns the life cycle: resuming, the change signal,
 * closing.
 */
export class RouterEngine {
  readonly clock: RouterClock;
  /** The ingress address once a shell listens (set by RouterIngress). */
  ingressUrl: string | null = null;
  private readonly context: RouterContext;
  private readonly configuration: RouterConfiguration;
  private readonly schemas: EventSchemas;
  private readonly intake: EventIntake;
  private readonly queries: RouterQueries;
  private readonly builtIns: BuiltInPublishers;
  private closed = false;

  constructor(private readonly options: RouterEngineOptions) {
    this.clock = options.clock ?? new VirtualClock();
    const repository = new RouterRepository(options.db, {
      onCommitError: (error) =>
        options.log?.error('The router could not store events or deliveries', error),
      ...(options.commitSink ? { sink: options.commitSink } : {}),
    });
    this.context = {
      repository,
      config: new ConfigCache(repository),
      clock: this.clock,
      ids: new RouterIds(),
      log: options.log,
      account: () => this.configuration.account(),
      changed: (config, events) => this.changed(config, events),
    };
    this.schemas = new EventSchemas(this.context);
    this.configuration = new RouterConfiguration(this.context, this.schemas);
    this.intake = new EventIntake(this.context, this.schemas);
    this.queries = new RouterQueries(this.context);
    this.builtIns = new BuiltInPublishers(this.context, this.intake);
    this.builtIns.ensurePlatformPublishers();
    this.intake.resume();
  }

  // -----------------------------------------------------------------------------------------
  // Configuration: account, publishers and their events, targets, rules

  account(): RouterAccount {
    return this.configuration.account();
  }

  setAccount(account: RouterAccount): RouterAccount {
    return this.configuration.setAccount(account);
  }

  overview(): RouterOverview {
    return this.configuration.overview(this.ingressUrl);
  }

  publisher(id: string): PublisherView {
    return this.configuration.publisher(id);
  }

  /**
   * A custom publisher with a fresh API key, returned this once (only its hash is stored). The
   * headless config passes its own id and key.
   */
  createPublisher(input: PublisherInput): { publisher: PublisherView; apiKey: string } {
    return this.configuration.createPublisher(input);
  }

  rotateApiKey(publisherId: string): string {
    return this.configuration.rotateApiKey(publisherId);
  }

  setPublisherStatus(id: string, status: PublisherStatus): PublisherView {
    return this.configuration.setPublisherStatus(id, status);
  }

  createEvent(input: EventConfigInput): EventConfigView {
    return this.configuration.createEvent(input);
  }

  saveTarget(input: TargetInput): TargetView {
    return this.configuration.saveTarget(input);
  }

  setTargetStatus(id: string, status: TargetStatus): TargetView {
    return this.configuration.setTargetStatus(id, status);
  }

  saveRule(input: RuleInput): RuleView {
    return this.configuration.saveRule(input);
  }

  setRuleStatus(id: string, status: RuleStatus): RuleView {
    return this.configuration.setRuleStatus(id, status);
  }

  // -----------------------------------------------------------------------------------------
  // Schemas and captures

  schemaVersions(eventConfigId: string): SchemaVersionView[] {
    return this.schemas.schemaVersions(eventConfigId);
  }

  /**
   * A new schema version from a sample (merged into the inference so far when `merge`); the
   * sample's keys in `required` become required, its others optional (left out: as they were).
   */
  setSample(
    eventConfigId: string,
    sample: unknown,
    merge: boolean,
    options: { source?: 'sample' | 'capture' | 'publisher'; required?: readonly string[] } = {},
  ): SchemaVersionView {
    return this.schemas.setSample(eventConfigId, sample, merge, options);
  }

  /** Keys added, removed, or made required or optional by hand: a new schema version. */
  editSchemaKeys(
    eventConfigId: string,
    add: readonly SchemaKeyAddition[],
    remove: readonly string[],
    require: readonly RequiredChoice[] = [],
  ): SchemaVersionView {
    return this.schemas.editSchemaKeys(eventConfigId, add, remove, require);
  }

  validateSample(
    eventConfigId: string,
    sample: unknown,
  ): { valid: boolean; version: number | null; errors: string[] } {
    return this.schemas.validateSample(eventConfigId, sample);
  }

  /** A capture token valid for 15 (virtual) minutes; the ingress turns it into a URL. */
  startCapture(eventConfigId: string): { token: string; expiresAt: number; nowMs: number } {
    return this.schemas.startCapture(eventConfigId);
  }

  /** What the capture URL answers to a posted body. */
  capture(token: string, body: unknown): { status: number; body: Record<string, unknown> } {
    return this.schemas.capture(token, body);
  }

  // -----------------------------------------------------------------------------------------
  // Receiving events

  /**
   * The hook for default publishers (sync, the outbox, platform services) and the ingress: stores
   * the event as Received and routes it on the next turn of the event loop. Returns its id.
   */
  publish(...args: Parameters<EventIntake['publish']>): string {
    return this.intake.publish(...args);
  }

  /**
   * Settles once every event published so far is stored (committed); the ingress answers 202 only
   * then. Rejects if the commit failed.
   */
  stored(): Promise<void> {
    return this.intake.stored();
  }

  /** The ingress's check of a custom publisher's key; null when accepted, else the HTTP answer. */
  authenticate(
    publisherId: string,
    apiKey: string | undefined,
  ): { status: number; error: string } | null {
    return this.intake.authenticate(publisherId, apiKey);
  }

  hasEvent(publisherId: string, apiName: string): boolean {
    return this.intake.hasEvent(publisherId, apiName);
  }

  /** Routes a stored event's data again as a new event, linked to the original. */
  redeliver(id: string): string {
    return this.intake.redeliver(id);
  }

  /** Publishes the event's stored sample as a new event. */
  sendTestEvent(eventConfigId: string): string {
    return this.intake.sendTestEvent(eventConfigId);
  }

  /** Resolves once every received event is routed and no delivery is queued or running. */
  settle(): Promise<void> {
    return this.intake.settle();
  }

  // -----------------------------------------------------------------------------------------
  // Default publishers: the hooks other parts of PortalDesk call.

  /** Raises a platform-service event (sync runs, backup downloads, sign-in/refresh/sign-out). */
  raisePlatformEvent<K extends PlatformPublisherKey>(
    publisher: K,
    event: PlatformEventName<K>,
    data: Record<string, unknown>,
  ): string {
    return this.builtIns.raisePlatformEvent(publisher, event, data);
  }

  /** The suite publisher of a signed-in portal, with Create…Reject events per module. */
  ensureSuitePublisher(portal: SuitePortal): PublisherView {
    return this.configuration.publisher(this.builtIns.ensureSuitePublisher(portal).id);
  }

  /** Raises a suite event: a change sync pulled or the outbox replayed, for a module and scope. */
  raiseSuiteEvent(...args: Parameters<BuiltInPublishers['raiseSuiteEvent']>): string {
    return this.builtIns.raiseSuiteEvent(...args);
  }

  // -----------------------------------------------------------------------------------------
  // Reading events

  listEvents(query: EventListQuery): { total: number; rows: EventSummaryView[] } {
    return this.queries.listEvents(query);
  }

  getEvent(id: string): EventDetailView {
    return this.queries.getEvent(id);
  }

  requestBin(targetId: string, limit = 100): BinEntryView[] {
    return this.queries.requestBin(targetId, limit);
  }

  // -----------------------------------------------------------------------------------------
  // Life cycle

  private changed(config: boolean, events: boolean): void {
    if (config) this.context.config.invalidate();
    if (this.closed) return;
    this.options.onChange?.({ config, events });
  }

  close(): void {
    this.closed = true;
    // The intake's worker first: attempts not sent yet are taken back before the last commit.
    this.intake.close();
    try {
      this.context.repository.flush();
    } catch (error) {
      this.options.log?.error('The router could not store its last changes while closing', error);
    }
    this.clock.close();
  }
}
