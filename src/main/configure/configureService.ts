/**
 * What the `configure.*` requests do: a portal's modules read with their queued changes laid over
 * (moduleOverlay.ts), and each change checked with the shared rules (src/shared/configRules/),
 * planned against the module's queue (moduleOps.ts) and queued in the outbox, which replays it
 * exactly once (sendModuleOp.ts). Nothing here reaches the network.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  ConfigModule,
  ConfigModules,
  CreateModuleArgs,
  ModuleAction,
  UpdateModuleArgs,
} from '../../shared/ipc/areas/configure';
import {
  deleteConfirmationProblem,
  firstProblem,
  moduleSettingsProblems,
} from '../../shared/configRules/moduleRules';
import type { EventPusher } from '../bridge/eventHub';
import type { OutboxService } from '../outbox/outboxService';
import type { OutboxEntry } from '../../shared/ipc/areas/outbox';
import type { OutboxOp } from '../outbox/outboxTypes';
import { RecordsReader } from '../records/recordsReader';
import type { Mirror } from '../store/mirror/mirror';
import { ModuleBinRepository } from './moduleBinRepository';
import {
  moduleQueue,
  opAction,
  opFields,
  planModuleChange,
  requestOf,
  sameSetting,
  settingsByKey,
  summaryOf,
  TEMP_MODULE_PREFIX,
  type ModuleSettingsByKey,
} from './moduleOps';
import { overlayModules, type MirroredModule } from './moduleOverlay';
import { moduleSend } from './sendModuleOp';
import { binActionOf, binRequest, binSummary } from './binOps';
import { PortalBinRepository } from './portalBinRepository';
import { PortalBinService } from './portalBinService';
import { binSend } from './sendBinOp';
import type { ApiClient } from '../api/client/apiClient';

/** A change refused before anything was queued; the message says why, for the user. */
export class ConfigRefused extends Error {
  override name = 'ConfigRefused';
}

export interface ConfigureServiceOptions {
  db: Database.Database;
  mirror: Mirror;
  outbox: OutboxService;
  events: EventPusher;
  /** Read a portal's configuration and records again (after a module was created or recovered). */
  refresh(portalId: string): void;
  /** The API client of the account that reaches a portal (the recycle bin is read online). */
  clientFor(portalId: string): ApiClient | undefined;
  now?: () => number;
}

export class ConfigureService {
  private readonly bin: ModuleBinRepository;
  private readonly reader: RecordsReader;
  /** The portal's recycle bin (the `bin.*` requests). */
  readonly portalBin: PortalBinService;

  constructor(private readonly options: ConfigureServiceOptions) {
    this.bin = new ModuleBinRepository(options.db);
    this.reader = new RecordsReader(options.db, options.mirror);
    const portalBins = new PortalBinRepository(options.db);
    this.portalBin = new PortalBinService({
      bin: portalBins,
      mirror: options.mirror,
      outbox: options.outbox,
      clientFor: options.clientFor,
      changed: (portalId) => this.changed(portalId),
      ...(options.now ? { now: options.now } : {}),
    });
    const modules = moduleSend({
      bin: this.bin,
      recordCount: (portalId, moduleId) =>
        this.reader.modules(portalId).find((module) => module.id === moduleId)?.records ?? 0,
      changed: (portalId) => this.changed(portalId),
      refresh: (portalId) => options.refresh(portalId),
    });
    const bins = binSend({ bin: portalBins, changed: (portalId) => this.changed(portalId) });
    // One send for every configuration change, by what it changes.
    options.outbox.useConfig({
      send: (ctx, op, client) => (binActionOf(op) !== null ? bins : modules)(ctx, op, client),
      describe: (op) => this.describe(op),
    });
  }

  modules(portalId: string): ConfigModules {
    const { metadata } = this.options.mirror;
    if (!metadata.portal(portalId)) {
      throw new ConfigRefused(
        `Portal ${portalId} is not in the local mirror. Choose another portal, or sync this one first.`,
      );
    }
    const counts = new Map(this.reader.modules(portalId).map((m) => [m.id, m.records]));
    const mirrored: MirroredModule[] = metadata.modules(portalId).map((module) => ({
      id: module.id,
      apiName: module.apiName,
      singularName: module.singularName,
      pluralName: module.pluralName,
      iconClass: module.iconClass,
      isActive: module.isActive === 1,
      isDefault: module.isDefault === 1,
      details: JSON.parse(module.details) as Record<string, unknown>,
      records: counts.get(module.id) ?? 0,
    }));
    const bin = this.bin.ofPortal(portalId);
    const projectNames = projectsOf([...mirrored, ...bin]);
    const modules = overlayModules({
      mirrored,
      bin,
      ops: this.options.outbox.repo.configOps(portalId),
      projectNames,
    });
    return {
      portalId,
      modules,
      projects: [...projectNames].map(([id, name]) => ({ id, name })),
    };
  }

  private module(portalId: string, moduleId: string): ConfigModule {
    const module = this.modules(portalId).modules.find((candidate) => candidate.id === moduleId);
    if (!module) {
      throw new ConfigRefused(
        `Module ${moduleId} is not in this portal's configuration here (deleted, or its creation discarded). Nothing was changed.`,
      );
    }
    return module;
  }

  /** The other modules' names a module may not take (trashed ones free theirs, as the service). */
  private others(portalId: string, exceptId: string | null) {
    return this.modules(portalId).modules.filter(
      (module) => module.id !== exceptId && module.state !== 'trashed',
    );
  }

  createModule(args: CreateModuleArgs): ConfigModule {
    const { portalId, isGlobal, ...settings } = args;
    this.modules(portalId);
    const problem = firstProblem(
      moduleSettingsProblems(
        settings,
        { others: this.others(portalId, null), builtIn: false },
        true,
      ),
    );
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    const moduleId = `${TEMP_MODULE_PREFIX}${randomBytes(8).toString('hex')}`;
    const values = settingsByKey({ ...settings, isGlobal });
    if (values.is_all_projects) values.projects = [];
    this.queue(portalId, moduleId, 'create', opFields(values, null));
    return this.module(portalId, moduleId);
  }

  updateModule(args: UpdateModuleArgs): ConfigModule {
    const module = this.module(args.portalId, args.moduleId);
    if (module.state === 'trashed') {
      throw new ConfigRefused(
        `${module.pluralName} is in the module bin; recover it before changing it. Nothing was queued.`,
      );
    }
    const changes = { ...args.changes };
    // Projects only matter for a module not on every project.
    if (changes.isAllProjects === true) changes.projects = [];
    const problem = firstProblem(
      moduleSettingsProblems(
        {
          ...changes,
          ...(changes.projects !== undefined || changes.isAllProjects !== undefined
            ? {
                isAllProjects: changes.isAllProjects ?? module.isAllProjects,
                projects: changes.projects ?? module.projects.map((p) => p.id),
              }
            : {}),
        },
        { others: this.others(args.portalId, module.id), builtIn: module.builtIn },
        false,
      ),
    );
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    // The base of each setting: what the module shows now, queued changes included (they will
    // have reached the service before this one goes), as for a record's fields.
    const shown: ModuleSettingsByKey = {
      singular_name: module.singularName,
      plural_name: module.pluralName,
      icon_class: module.iconClass,
      is_global_module: module.isGlobal,
      is_all_projects: module.isAllProjects,
      is_overview_needed: module.isOverviewNeeded,
      default_layout_type: module.defaultLayoutType,
      projects: module.projects.map((project) => project.id),
    };
    this.queue(args.portalId, module.id, 'update', opFields(settingsByKey(changes), shown), shown);
    return this.module(args.portalId, module.id);
  }

  setModuleActive(portalId: string, moduleId: string, active: boolean): ConfigModule {
    const module = this.module(portalId, moduleId);
    if (module.state === 'trashed') {
      throw new ConfigRefused(
        `${module.pluralName} is in the module bin; recover it first. Nothing was queued.`,
      );
    }
    if (module.builtIn && !active) {
      throw new ConfigRefused(
        `${module.pluralName} is one of the product's own modules; it cannot be deactivated.`,
      );
    }
    this.queue(portalId, moduleId, active ? 'activate' : 'deactivate', {});
    return this.module(portalId, moduleId);
  }

  trashModule(portalId: string, moduleId: string): ConfigModule | null {
    const module = this.module(portalId, moduleId);
    if (module.builtIn) {
      throw new ConfigRefused(
        `${module.pluralName} is one of the product's own modules; it cannot be moved to the bin.`,
      );
    }
    if (module.state === 'trashed') {
      throw new ConfigRefused(`${module.pluralName} is already in the module bin.`);
    }
    this.queue(portalId, moduleId, 'trash', {});
    // A module created here and trashed before it went is gone altogether.
    return this.modules(portalId).modules.find((m) => m.id === moduleId) ?? null;
  }

  recoverModule(portalId: string, moduleId: string): ConfigModule {
    const module = this.module(portalId, moduleId);
    if (module.state !== 'trashed') {
      throw new ConfigRefused(`${module.pluralName} is not in the module bin. Nothing was queued.`);
    }
    if (module.pending.some((change) => change.action === 'delete')) {
      throw new ConfigRefused(
        `${module.pluralName} is queued to be deleted for good; discard that change in the Outbox first.`,
      );
    }
    this.queue(portalId, moduleId, 'recover', {});
    return this.module(portalId, moduleId);
  }

  deleteModule(portalId: string, moduleId: string, confirmName: string): void {
    const module = this.module(portalId, moduleId);
    if (module.state !== 'trashed') {
      throw new ConfigRefused(
        `Move ${module.pluralName} to the module bin first; only a module in the bin is deleted for good.`,
      );
    }
    const problem = deleteConfirmationProblem(confirmName, module.pluralName);
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    if (module.pending.some((change) => change.action === 'delete')) {
      throw new ConfigRefused(`${module.pluralName} is already queued to be deleted for good.`);
    }
    this.queue(portalId, moduleId, 'delete', {});
  }

  /** Plans `action` against the module's queue and writes the plan in one transaction. */
  private queue(
    portalId: string,
    moduleId: string,
    action: ModuleAction,
    fields: OutboxOp['fields'],
    shown?: ModuleSettingsByKey,
  ): void {
    const repo = this.options.outbox.repo;
    repo.transaction(() => {
      const queue = repo.opsOfRecord(portalId, moduleQueue(moduleId));
      // A setting changed to what is already shown changes nothing.
      const changes =
        action === 'update' && shown
          ? Object.fromEntries(
              Object.entries(fields).filter(
                ([key, entry]) =>
                  !sameSetting(key, entry.value, shown[key as keyof ModuleSettingsByKey]),
              ),
            )
          : fields;
      if (action === 'update' && Object.keys(changes).length === 0) return;
      const plan = planModuleChange(queue, action, changes);
      if (plan.kind === 'insert') {
        repo.insertOp({
          portalId,
          moduleId,
          recordId: moduleQueue(moduleId),
          kind: 'config',
          action: opAction(action),
          fields: plan.fields,
        });
      } else if (plan.kind === 'fold') {
        repo.rewriteOp(plan.seq, plan.fields);
      } else if (plan.kind === 'drop') {
        for (const seq of plan.seqs) repo.deleteOp(seq);
      }
    });
    this.options.outbox.configQueued(null);
    this.changed(portalId);
  }

  /** How the Outbox shows a configuration operation. */
  private describe(op: OutboxOp): NonNullable<OutboxEntry['config']> {
    if (binActionOf(op) !== null) {
      return {
        action: op.action ?? 'bin',
        target: 'Recycle bin',
        summary: binSummary(op),
        request: binRequest(op),
      };
    }
    const mirrored = this.options.mirror.metadata
      .modules(op.portalId)
      .find((module) => module.id === op.moduleId);
    const binned = mirrored ? undefined : this.bin.get(op.portalId, op.moduleId);
    const apiName = mirrored?.apiName ?? binned?.apiName ?? null;
    const named = op.fields.plural_name?.value;
    return {
      action: op.action ?? 'config',
      target:
        mirrored?.pluralName ??
        binned?.pluralName ??
        (typeof named === 'string' ? named : `module ${op.moduleId}`),
      summary: summaryOf(op),
      request: requestOf(op, apiName),
    };
  }

  private changed(portalId: string): void {
    this.options.events.push('configure.changed', portalId, () => ({ portalId }));
  }
}

/** Project names the mirror knows from modules' project lists, by id. */
function projectsOf(
  modules: readonly { details: Record<string, unknown> }[],
): Map<string, string | null> {
  const names = new Map<string, string | null>();
  for (const module of modules) {
    const projects = module.details.projects;
    if (!Array.isArray(projects)) continue;
    for (const item of projects) {
      if (typeof item !== 'object' || item === null) continue;
      const project = (item as { project?: unknown }).project;
      if (typeof project !== 'object' || project === null) continue;
      const { id, name } = project as { id?: unknown; name?: unknown };
      if (id === undefined) continue;
      if (!names.get(String(id))) names.set(String(id), typeof name === 'string' ? name : null);
    }
  }
  return names;
}
