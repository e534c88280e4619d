/**
 * The admin side of the router: the account, publishers and their keys, their events, targets and
 * rules, as the Event router section, the admin API and the headless config set them. Each write
 * goes to the repository and drops the configuration cache (through `changed`), so the next event
 * is routed with it. Owns the account (read by every part through the context). Schemas are
 * eventSchemas.ts's; a new event's sample is written through it.
 */
import {
  FaultSettings,
  MAX_FILTER_DEPTH,
  MAX_RULE_CONDITIONS,
  RouterAccount,
  RuleInput,
  TargetInput,
  type EventConfigView,
  type PublisherStatus,
  type PublisherView,
  type RouterOverview,
  type RuleStatus,
  type RuleView,
  type TargetStatus,
  type TargetView,
} from '../../../shared/ipc/areas/router';
import { apiKeyHint, generateApiKey, hashApiKey } from './apiKeys';
import type { EventSchemas } from './eventSchemas';
import { filterSize } from '../filter/filterDepth';
import { isPlainObject, requireEventConfig, type RouterContext } from './routerContext';
import { RouterInputError, RouterNotFoundError } from './routerErrors';
import type { EventConfigRow, PublisherRow } from '../store/routerRows';
import { schemaPaths } from '../schema/schemaPaths';
import { suiteScopeOf } from './defaultPublishers';

/** The account until the user sets one: ids in the spec's long numeric form. */
const DEFAULT_ACCOUNT: RouterAccount = {
  org_id: '100000000001',
  project: { name: 'PortalDesk sandbox', environment: 'development', id: '100000000002' },
  time_zone: 'UTC',
};

/** A publisher to create or, with the id of one, to replace (the headless config's ids and keys). */
export interface PublisherInput {
  name: string;
  id?: string;
  apiKey?: string;
  status?: PublisherStatus;
  kind?: PublisherRow['kind'];
  service?: string;
}

/** An event of a publisher, with an optional sample its first schema is inferred from. */
export interface EventConfigInput {
  publisherId: string;
  apiName: string;
  sample?: unknown;
  id?: string;
}

export class RouterConfiguration {
  private accountCache: RouterAccount | null = null;

  constructor(
    private readonly context: RouterContext,
    private readonly schemas: EventSchemas,
  ) {}

  // -----------------------------------------------------------------------------------------
  // Account

  account(): RouterAccount {
    if (!this.accountCache) {
      const stored = RouterAccount.safeParse(this.context.repository.getAccount());
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
    this.context.repository.putAccount(parsed);
    this.accountCache = parsed;
    this.context.changed(true, false);
    return parsed;
  }

  // -----------------------------------------------------------------------------------------
  // Publishers and their events

  /** Everything the Event router section shows at once; the ingress's address is the engine's. */
  overview(ingressUrl: string | null): RouterOverview {
    const { clock, config } = this.context;
    return {
      account: this.account(),
      ingressUrl,
      clock: { nowMs: clock.now(), scale: clock.scale },
      publishers: config.publishers().map((row) => this.publisherView(row)),
      rules: config.rules(),
      targets: [...config.targets().values()],
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
      events: this.context.config
        .eventConfigs()
        .filter((config) => config.publisher_id === row.id)
        .map((config) => this.eventConfigView(config, row.kind)),
    };
  }

  private eventConfigView(row: EventConfigRow, kind: PublisherRow['kind']): EventConfigView {
    const schema = this.context.config.latestSchema(row.id);
    return {
      id: row.id,
      publisherId: row.publisher_id,
      apiName: row.api_name,
      // Only a suite publisher's events are named `<module>_<Scope>`; a custom event may end so.
      scope: kind === 'suite' ? suiteScopeOf(row.api_name) : null,
      schemaVersion: schema?.version ?? null,
      sample: row.sample === null ? null : (JSON.parse(row.sample) as unknown),
      paths: schema ? schemaPaths(schema.schema) : [],
    };
  }

  publisher(id: string): PublisherView {
    const row = this.context.config.publisher(id);
    if (!row) throw new RouterNotFoundError(`No publisher ${id} exists in the router sandbox.`);
    return this.publisherView(row);
  }

  /**
   * A custom publisher with a fresh API key, returned this once (only its hash is stored). The
   * headless config passes its own id and key.
   */
  createPublisher(input: PublisherInput): { publisher: PublisherView; apiKey: string } {
    const { repository } = this.context;
    const apiKey = input.apiKey ?? generateApiKey();
    const id = input.id ?? this.context.ids.next();
    const existing = repository.getPublisher(id);
    repository.upsertPublisher({
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
    this.context.changed(true, false);
    return { publisher: this.publisher(id), apiKey };
  }

  rotateApiKey(publisherId: string): string {
    const row = this.context.config.publisher(publisherId);
    if (!row) throw new RouterNotFoundError(`No publisher ${publisherId}; no key was changed.`);
    if (row.kind !== 'custom') {
      throw new RouterInputError(
        `${row.name} is a default publisher: the platform authorizes its events, so it has no API key.`,
      );
    }
    const apiKey = generateApiKey();
    this.context.repository.setPublisherKey(publisherId, hashApiKey(apiKey), apiKeyHint(apiKey));
    this.context.changed(true, false);
    return apiKey;
  }

  setPublisherStatus(id: string, status: PublisherStatus): PublisherView {
    if (!this.context.config.publisher(id)) {
      throw new RouterNotFoundError(`No publisher ${id}; nothing was changed.`);
    }
    this.context.repository.setPublisherStatus(id, status);
    this.context.changed(true, false);
    return this.publisher(id);
  }

  createEvent(input: EventConfigInput): EventConfigView {
    const { config, repository } = this.context;
    const publisher = config.publisher(input.publisherId);
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
    const existing = config.eventConfigByName(input.publisherId, input.apiName);
    if (existing && existing.id !== input.id) {
      throw new RouterInputError(
        `${publisher.name} already has an event named ${input.apiName}; choose another API name.`,
      );
    }
    const id = input.id ?? this.context.ids.next();
    repository.transaction(() => {
      if (!repository.getEventConfig(id)) {
        repository.insertEventConfig({
          id,
          publisherId: input.publisherId,
          apiName: input.apiName,
          sample: null,
          createdAt: Date.now(),
        });
      }
      if (input.sample !== undefined) this.schemas.writeSample(id, input.sample, false, 'sample');
    });
    this.context.changed(true, false);
    return this.eventConfigView(requireEventConfig(config, id), publisher.kind);
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
      id: target.id ?? this.context.ids.next(),
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
    this.context.repository.upsertTarget(view, this.context.clock.now());
    this.context.changed(true, false);
    return view;
  }

  setTargetStatus(id: string, status: TargetStatus): TargetView {
    if (!this.context.config.target(id))
      throw new RouterNotFoundError(`No target ${id}; nothing was changed.`);
    this.context.repository.setTargetStatus(id, status, this.context.clock.now());
    this.context.changed(true, false);
    return this.context.config.target(id) as TargetView;
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
      if (!this.context.config.eventConfig(id)) problems.push(`no event ${id}`);
    }
    for (const id of rule.targetIds) {
      if (!this.context.config.target(id)) problems.push(`no target ${id}`);
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
      id: rule.id ?? this.context.ids.next(),
      name: rule.name,
      status: rule.status,
      retryCount: rule.retryCount,
      eventConfigIds: [...new Set(rule.eventConfigIds)].sort(),
      filter: rule.filter,
      targetIds: rule.targetIds,
      updatedAt: this.context.clock.now(),
    };
    this.context.repository.transaction(() => this.context.repository.saveRule(view));
    this.context.changed(true, false);
    return view;
  }

  setRuleStatus(id: string, status: RuleStatus): RuleView {
    if (!this.context.config.rule(id))
      throw new RouterNotFoundError(`No rule ${id}; nothing was changed.`);
    this.context.repository.setRuleStatus(id, status, this.context.clock.now());
    this.context.changed(true, false);
    return this.context.config.rule(id) as RuleView;
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
