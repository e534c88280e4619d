import type { RuleView, TargetView } from '../../../shared/ipc/areas/router';
import type { RouterRepository } from '../store/routerRepository';
import type { EventConfigRow, PublisherRow } from '../store/routerRows';

interface Snapshot {
  publishers: Map<string, PublisherRow>;
  eventConfigs: Map<string, EventConfigRow>;
  eventConfigByName: Map<string, EventConfigRow>;
  rules: Map<string, RuleView>;
  rulesByEventConfig: Map<string, RuleView[]>;
  targets: Map<string, TargetView>;
  schemas: Map<string, { version: number; schema: Record<string, unknown> } | null>;
}

/**
 * Publishers, event configs, rules and targets held in memory: every event reads them and they
 * change rarely, so any configuration write drops the copy and the next read loads it again.
 */
export class ConfigCache {
  private snapshot: Snapshot | null = null;

  constructor(private readonly repository: RouterRepository) {}

  invalidate(): void {
    this.snapshot = null;
  }

  private load(): Snapshot {
    if (this.snapshot) return this.snapshot;
    const publishers = new Map(this.repository.listPublishers().map((row) => [row.id, row]));
    const configs = this.repository.listEventConfigs();
    const rules = this.repository.listRules();
    const rulesByEventConfig = new Map<string, RuleView[]>();
    for (const rule of rules) {
      for (const id of rule.eventConfigIds) {
        const list = rulesByEventConfig.get(id) ?? [];
        list.push(rule);
        rulesByEventConfig.set(id, list);
      }
    }
    this.snapshot = {
      publishers,
      eventConfigs: new Map(configs.map((row) => [row.id, row])),
      eventConfigByName: new Map(
        configs.map((row) => [`${row.publisher_id}/${row.api_name}`, row]),
      ),
      rules: new Map(rules.map((rule) => [rule.id, rule])),
      rulesByEventConfig,
      targets: new Map(this.repository.listTargets().map((target) => [target.id, target])),
      schemas: new Map(),
    };
    return this.snapshot;
  }

  publisher(id: string): PublisherRow | undefined {
    return this.load().publishers.get(id);
  }
  publishers(): PublisherRow[] {
    return [...this.load().publishers.values()];
  }
  eventConfig(id: string): EventConfigRow | undefined {
    return this.load().eventConfigs.get(id);
  }
  eventConfigByName(publisherId: string, apiName: string): EventConfigRow | undefined {
    return this.load().eventConfigByName.get(`${publisherId}/${apiName}`);
  }
  eventConfigs(): EventConfigRow[] {
    return [...this.load().eventConfigs.values()];
  }
  rule(id: string): RuleView | undefined {
    return this.load().rules.get(id);
  }
  rules(): RuleView[] {
    return [...this.load().rules.values()];
  }
  rulesFor(eventConfigId: string): RuleView[] {
    return this.load().rulesByEventConfig.get(eventConfigId) ?? [];
  }
  target(id: string): TargetView | undefined {
    return this.load().targets.get(id);
  }
  targets(): ReadonlyMap<string, TargetView> {
    return this.load().targets;
  }
  /** The newest schema version of an event config, or null before it has one. */
  latestSchema(eventConfigId: string): { version: number; schema: Record<string, unknown> } | null {
    const schemas = this.load().schemas;
    if (!schemas.has(eventConfigId)) {
      const row = this.repository.latestSchema(eventConfigId);
      schemas.set(
        eventConfigId,
        row
          ? { version: row.version, schema: JSON.parse(row.schema) as Record<string, unknown> }
          : null,
      );
    }
    return schemas.get(eventConfigId) ?? null;
  }
}
