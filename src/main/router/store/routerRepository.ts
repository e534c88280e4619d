import type Database from 'better-sqlite3';
import type {
  ExecutionStatus,
  FilterGroup,
  OverallStatus,
  PublisherStatus,
  RouterAccount,
  RuleStatus,
  RuleView,
  TargetStatus,
  TargetView,
} from '../../../shared/ipc/areas/router';
import { parseNamedQueries, requireQueries } from '../../store/sqlFile';
import routerSql from './queries/router.sql?raw';
import { prepareRouterWrites, type RouterWriteStatements } from './applyRouterWrites';
import { GroupCommit, type CommitSink } from './groupCommit';
import { inlineCommitSink } from './inlineCommitSink';
import type { SchemaEdit } from '../schema/schemaEdits';
import type { AttemptFinish, WriteBatch } from './writeBatch';
import type {
  AttemptRow,
  BinEntryRow,
  CaptureRow,
  EventConfigRow,
  EventListRow,
  EventRow,
  ExecutionRow,
  PublisherRow,
  SchemaVersionRow,
} from './routerRows';

const queries = requireQueries(
  parseNamedQueries(routerSql, 'router.sql'),
  [
    'getSetting',
    'putSetting',
    'listPublishers',
    'getPublisher',
    'getPublisherBySystemKey',
    'upsertPublisher',
    'setPublisherStatus',
    'setPublisherKey',
    'listEventConfigs',
    'getEventConfig',
    'getEventConfigByName',
    'insertEventConfig',
    'updateEventConfigSchemaState',
    'latestSchema',
    'listSchemaVersions',
    'insertSchemaVersion',
    'listTargets',
    'getTarget',
    'upsertTarget',
    'setTargetStatus',
    'listRules',
    'upsertRule',
    'clearRuleLinks',
    'clearRuleTargets',
    'linkRuleEvent',
    'linkRuleTarget',
    'setRuleStatus',
    'getEvent',
    'unroutedEvents',
    'getExecution',
    'executionsOfEvent',
    'executionStatusesOfEvent',
    'unfinishedExecutions',
    'attemptsOfEvent',
    'lastAttempt',
    'listBinEntries',
    'insertCapture',
    'getCapture',
    'countCapture',
    'listEvents',
    'countEvents',
  ] as const,
  'router.sql',
);

export interface EventListParams {
  status: string | null;
  publisherId: string | null;
  ruleId: string | null;
  fromMs: number | null;
  toMs: number | null;
  limit: number;
  offset: number;
}

type Statements = { [K in keyof typeof queries]: Database.Statement };

const TARGET_CONFIG_KEYS = [
  'url',
  'method',
  'headers',
  'query',
  'rateLimitPerSecond',
  'timeoutMs',
  'fault',
] as const;

/** The router's tables: named statements from queries/router.sql, rows in, rows out. */
export class RouterRepository {
  private readonly s: Statements;

  /** The delivery path's statements on this connection (the group commit's inline writes). */
  private readonly w: RouterWriteStatements;
  private readonly commits: GroupCommit;

  constructor(
    readonly db: Database.Database,
    options: {
      onCommitError?: (error: unknown) => void;
      /** Commits elsewhere (the writer thread) instead of on `db`; it falls back to `inline`. */
      sink?: (inline: CommitSink) => CommitSink;
    } = {},
  ) {
    this.s = Object.fromEntries(
      Object.entries(queries).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Statements;
    this.w = prepareRouterWrites(db);
    const inline = inlineCommitSink(db, this.w);
    this.commits = new GroupCommit({
      sink: options.sink ? options.sink(inline) : inline,
      isOpen: () => this.db.open,
      onError: options.onCommitError ?? (() => {}),
    });
  }

  transaction<T>(fn: () => T): T {
    this.flush();
    return this.db.transaction(fn).immediate();
  }

  /**
   * Group commit of the delivery path (events, executions, attempts, request-bin entries): queued
   * writes are merged per row and committed together once per turn of the event loop. Reads that
   * must see them call flush() first; close() flushes too.
   */
  queue(write: (batch: WriteBatch) => void): void {
    this.commits.queue(write);
  }

  /** Settles once every write queued so far is committed (rejects if the commit failed). */
  committed(): Promise<void> {
    return this.commits.committed();
  }

  /** Runs before each group commit; what it queues is part of that commit. */
  beforeCommit(hook: () => void): void {
    this.commits.beforeCommit(hook);
  }

  flush(): void {
    this.commits.flush();
  }

  // -- settings
  getAccount(): unknown {
    const row = this.s.getSetting.get('account') as { value: string } | undefined;
    return row ? JSON.parse(row.value) : undefined;
  }
  putAccount(account: RouterAccount): void {
    this.s.putSetting.run({ key: 'account', value: JSON.stringify(account) });
  }

  // -- publishers and event configs
  listPublishers(): PublisherRow[] {
    return this.s.listPublishers.all() as PublisherRow[];
  }
  getPublisher(id: string): PublisherRow | undefined {
    return this.s.getPublisher.get(id) as PublisherRow | undefined;
  }
  getPublisherBySystemKey(key: string): PublisherRow | undefined {
    return this.s.getPublisherBySystemKey.get(key) as PublisherRow | undefined;
  }
  upsertPublisher(row: PublisherRow): void {
    this.s.upsertPublisher.run({
      id: row.id,
      name: row.name,
      kind: row.kind,
      service: row.service,
      status: row.status,
      apiKeyHash: row.api_key_hash,
      apiKeyHint: row.api_key_hint,
      systemKey: row.system_key,
      createdAt: row.created_at,
    });
  }
  setPublisherStatus(id: string, status: PublisherStatus): void {
    this.s.setPublisherStatus.run({ id, status });
  }
  setPublisherKey(id: string, apiKeyHash: string, apiKeyHint: string): void {
    this.s.setPublisherKey.run({ id, apiKeyHash, apiKeyHint });
  }
  listEventConfigs(): EventConfigRow[] {
    return this.s.listEventConfigs.all() as EventConfigRow[];
  }
  getEventConfig(id: string): EventConfigRow | undefined {
    return this.s.getEventConfig.get(id) as EventConfigRow | undefined;
  }
  getEventConfigByName(publisherId: string, apiName: string): EventConfigRow | undefined {
    return this.s.getEventConfigByName.get(publisherId, apiName) as EventConfigRow | undefined;
  }
  insertEventConfig(row: {
    id: string;
    publisherId: string;
    apiName: string;
    sample: string | null;
    createdAt: number;
  }): void {
    this.s.insertEventConfig.run(row);
  }
  updateSchemaState(
    id: string,
    sample: string | null,
    inference: string | null,
    edits: readonly SchemaEdit[],
  ): void {
    this.s.updateEventConfigSchemaState.run({
      id,
      sample,
      inference,
      edits: JSON.stringify(edits),
    });
  }
  latestSchema(eventConfigId: string): SchemaVersionRow | undefined {
    return this.s.latestSchema.get(eventConfigId) as SchemaVersionRow | undefined;
  }
  listSchemaVersions(eventConfigId: string): SchemaVersionRow[] {
    return this.s.listSchemaVersions.all(eventConfigId) as SchemaVersionRow[];
  }
  insertSchemaVersion(row: {
    eventConfigId: string;
    version: number;
    schema: string;
    source: SchemaVersionRow['source'];
    createdAt: number;
  }): void {
    this.s.insertSchemaVersion.run(row);
  }

  // -- targets and rules
  listTargets(): TargetView[] {
    return (this.s.listTargets.all() as Record<string, string>[]).map(targetFromRow);
  }
  getTarget(id: string): TargetView | undefined {
    const row = this.s.getTarget.get(id) as Record<string, string> | undefined;
    return row ? targetFromRow(row) : undefined;
  }
  upsertTarget(target: TargetView, updatedAt: number): void {
    const config = Object.fromEntries(TARGET_CONFIG_KEYS.map((key) => [key, target[key]]));
    this.s.upsertTarget.run({
      id: target.id,
      name: target.name,
      kind: target.kind,
      status: target.status,
      config: JSON.stringify(config),
      updatedAt,
    });
  }
  setTargetStatus(id: string, status: TargetStatus, updatedAt: number): void {
    this.s.setTargetStatus.run({ id, status, updatedAt });
  }
  listRules(): RuleView[] {
    return (this.s.listRules.all() as Record<string, unknown>[]).map((row) => ({
      id: row.id as string,
      name: row.name as string,
      status: row.status as RuleStatus,
      retryCount: row.retry_count as number,
      filter: row.filter === null ? null : (JSON.parse(row.filter as string) as FilterGroup),
      eventConfigIds: (JSON.parse(row.event_ids as string) as string[]).sort(),
      targetIds: JSON.parse(row.target_ids as string) as string[],
      updatedAt: row.updated_at as number,
    }));
  }
  saveRule(rule: RuleView): void {
    const updatedAt = rule.updatedAt;
    this.s.upsertRule.run({
      id: rule.id,
      name: rule.name,
      status: rule.status,
      retryCount: rule.retryCount,
      filter: rule.filter === null ? null : JSON.stringify(rule.filter),
      updatedAt,
    });
    this.s.clearRuleLinks.run(rule.id);
    this.s.clearRuleTargets.run(rule.id);
    for (const eventId of rule.eventConfigIds) this.s.linkRuleEvent.run(rule.id, eventId);
    rule.targetIds.forEach((targetId, index) =>
      this.s.linkRuleTarget.run(rule.id, targetId, index),
    );
  }
  setRuleStatus(id: string, status: RuleStatus, updatedAt: number): void {
    this.s.setRuleStatus.run({ id, status, updatedAt });
  }

  // -- events, executions, attempts

  /** Changes an event's status at once (not queued): resuming after a restart. */
  setOverallStatus(id: string, overallStatus: OverallStatus): void {
    this.w.setOverallStatus.run({ id, overall_status: overallStatus });
  }
  getEvent(id: string): EventRow | undefined {
    this.flush();
    return this.s.getEvent.get(id) as EventRow | undefined;
  }
  unroutedEvents(): EventRow[] {
    this.flush();
    return this.s.unroutedEvents.all() as EventRow[];
  }

  updateExecution(
    id: string,
    status: ExecutionStatus,
    nextAttemptAt: number | null,
    note: string | null,
  ): void {
    this.w.updateExecution.run({ id, status, next_attempt_at: nextAttemptAt, note });
  }
  getExecution(id: string): ExecutionRow | undefined {
    this.flush();
    return this.s.getExecution.get(id) as ExecutionRow | undefined;
  }
  executionsOfEvent(eventId: string): ExecutionRow[] {
    this.flush();
    return this.s.executionsOfEvent.all(eventId) as ExecutionRow[];
  }
  executionStatusesOfEvent(eventId: string): {
    id: string;
    rule_status: RuleStatus;
    target_status: TargetStatus;
    status: ExecutionStatus;
  }[] {
    this.flush();
    return this.s.executionStatusesOfEvent.all(eventId) as {
      id: string;
      rule_status: RuleStatus;
      target_status: TargetStatus;
      status: ExecutionStatus;
    }[];
  }
  unfinishedExecutions(): ExecutionRow[] {
    this.flush();
    return this.s.unfinishedExecutions.all() as ExecutionRow[];
  }
  /** Records an attempt's end at once (resuming after a restart; deliveries queue it). */
  finishAttempt(row: AttemptFinish): void {
    this.w.finishAttempt.run(row);
  }
  attemptsOfEvent(eventId: string): AttemptRow[] {
    this.flush();
    return this.s.attemptsOfEvent.all(eventId) as AttemptRow[];
  }
  lastAttempt(executionId: string): number {
    this.flush();
    const row = this.s.lastAttempt.get(executionId) as { attempt: number | null };
    return row.attempt ?? 0;
  }
  listEvents(params: EventListParams): { total: number; rows: EventListRow[] } {
    this.flush();
    const { total } = this.s.countEvents.get({
      status: params.status,
      publisherId: params.publisherId,
      ruleId: params.ruleId,
      fromMs: params.fromMs,
      toMs: params.toMs,
    }) as { total: number };
    const rows = this.s.listEvents.all(params) as EventListRow[];
    return { total, rows };
  }

  // -- request bins and captures

  listBinEntries(targetId: string, limit: number): BinEntryRow[] {
    this.flush();
    return this.s.listBinEntries.all(targetId, limit) as BinEntryRow[];
  }
  insertCapture(row: { token: string; eventConfigId: string; expiresAt: number }): void {
    this.s.insertCapture.run(row);
  }
  getCapture(token: string): CaptureRow | undefined {
    return this.s.getCapture.get(token) as CaptureRow | undefined;
  }
  countCapture(token: string): void {
    this.s.countCapture.run(token);
  }
}

function targetFromRow(row: Record<string, string>): TargetView {
  const config = JSON.parse(row.config as string) as Omit<
    TargetView,
    'id' | 'name' | 'kind' | 'status'
  >;
  return {
    id: row.id as string,
    name: row.name as string,
    kind: row.kind as TargetView['kind'],
    status: row.status as TargetStatus,
    ...config,
  };
}
