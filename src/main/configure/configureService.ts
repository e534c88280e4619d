/**
 * What the `configure.*` requests do: a portal's modules read with their queued changes laid over
 * (moduleOverlay.ts), and each change checked with the shared rules (src/shared/configRules/),
 * planned against the module's queue (moduleOps.ts) and queued in the outbox, which replays it
 * exactly once (sendModuleOp.ts). Nothing here reaches the network.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  ConfigField,
  ConfigFields,
  ConfigOption,
  ConfigOptions,
  OptionAction,
  ConfigLayout,
  ConfigLayouts,
  FieldAction,
  FieldSettings,
  ConfigModule,
  ConfigModules,
  CreateModuleArgs,
  LayoutAction,
  ModuleAction,
  PlacedField,
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
import { opStatus, type OutboxOp } from '../outbox/outboxTypes';
import { withQueueHolds } from '../outbox/configQueueHolds';
import { configQueueOf, relabelled } from '../outbox/catalogOverlay';
import { refreshOverlay } from '../outbox/ledgerWrites';
import { parseJsonObject } from '@portaldesk/portal-api/json/parseJsonObject';
import { LedgerError } from '../outbox/ledgerError';
import { RecordsReader } from '../records/recordsReader';
import type { Mirror } from '../store/mirror/mirror';
import { ModuleBinRepository } from './moduleBinRepository';
import {
  moduleActionOf,
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
import {
  layoutActionOf,
  layoutOpAction,
  layoutRequest,
  layoutsQueue,
  layoutSummary,
  overlayLayouts,
  param,
  paramFields,
  TEMP_LAYOUT_PREFIX,
  TEMP_SECTION_PREFIX,
} from './layoutOps';
import { layoutSend } from './sendLayoutOp';
import { placementOf, placementProblem, planPlacement } from './placeFieldOps';
import {
  lostAnswerDiscardProblem,
  optionActionOf,
  optionsOf,
  optionOpAction,
  optionRequest,
  optionSummary,
  overlayOptions,
  optionQueueClash,
  planRenameDiscard,
  TEMP_OPTION_PREFIX,
  type RenameDiscard,
} from './optionOps';
import { maxOptionsOf, optionsProblem } from '../../shared/configRules/optionRules';
import {
  fieldActionOf,
  creationToFold,
  fieldOpAction,
  fieldRequest,
  fieldSummary,
  overlayFields,
  settingsOfProperty,
  TEMP_FIELD_PREFIX,
} from './fieldOps';
import {
  fieldDeleteConfirmationProblem,
  fieldSettingsProblems,
  firstFieldProblem,
} from '../../shared/configRules/fieldRules';
import { layoutNameProblem, sectionNameProblem } from '../../shared/configRules/layoutRules';
import type { OptionsRenamedThere } from '../sync/syncTypes';
import { PortalBinRepository } from './portalBinRepository';
import {
  basesBackAfterRemoval,
  clearRemovedBases,
  followSettledRecords,
  inFlightSetting,
  holdsValueOf,
  queuedRecordsHolding,
  relabelQueuedRecords,
  restoreClearedBases,
  type ChoiceField,
  type ClearedBase,
} from './queuedRecordOptions';
import { PortalBinService } from './portalBinService';
import { binSend } from './sendBinOp';
import type { ApiClient } from '../api/client/apiClient';
import { FieldChoicesService } from './fieldChoicesService';
import { fieldChoicesSend, fieldChoicesDescribe, isFieldChoiceOp } from './sendFieldChoiceOp';

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

/** "A record change" or "3 record changes", as a refusal counts them. */
const recordChanges = (n: number) =>
  n === 1 ? 'A record change' : `${n.toLocaleString('en-US')} record changes`;

export class ConfigureService {
  private readonly bin: ModuleBinRepository;
  private readonly reader: RecordsReader;
  /** The portal's recycle bin (the `bin.*` requests). */
  readonly portalBin: PortalBinService;
  /** A module's statuses and a user field's users and roles (the `configure.*` requests of them). */
  readonly choices: FieldChoicesService;

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
    const layouts = layoutSend({ changed: (portalId) => this.changed(portalId) });
    this.choices = new FieldChoicesService({
      mirror: options.mirror,
      outbox: options.outbox,
      module: (portalId, moduleId) => this.module(portalId, moduleId),
      fields: (portalId, moduleId) => this.fields(portalId, moduleId),
      configOps: (portalId) => this.configOps(portalId),
      changed: (portalId) => this.changed(portalId),
      refusal: (message) => new ConfigRefused(message),
    });
    const choices = fieldChoicesSend({ changed: (portalId) => this.changed(portalId) });
    // One send for every configuration change, by what it changes.
    options.outbox.useConfig({
      send: (ctx, op, client) => {
        // Before an option change goes, every record change it left in flight has settled (the
        // replay holds it while one is sent): those not delivered follow the renames and
        // removals first.
        if (optionActionOf(op) !== null) this.followSettled(op.portalId, op.moduleId);
        return (
          isFieldChoiceOp(op)
            ? choices
            : binActionOf(op) !== null
              ? bins
              : (layoutActionOf(op) ?? fieldActionOf(op) ?? optionActionOf(op)) !== null
                ? layouts
                : modules
        )(ctx, op, client);
      },
      describe: (op) => this.describe(op),
      discarded: (op) => this.optionsDiscarded(op),
      // A record change back from the service undelivered follows the renames and removals
      // queued while it was in flight: it goes again after them. A delivered one leaves their
      // in-flight lists.
      recordSettled: (op) => this.followSettled(op.portalId, op.moduleId),
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
      ops: this.configOps(portalId),
      projectNames,
    });
    return {
      portalId,
      modules,
      projects: [...projectNames].map(([id, name]) => ({ id, name })),
    };
  }

  /**
   * The names and active state each mirrored module shows with its queued changes, for the
   * records workspace's navigation (a module in the bin or only queued is not there yet).
   */
  shownModules(
    portalId: string,
  ): Map<string, { singularName: string; pluralName: string; isActive: boolean }> {
    const shown = new Map<
      string,
      { singularName: string; pluralName: string; isActive: boolean }
    >();
    if (!this.options.mirror.metadata.portal(portalId)) return shown;
    if (!this.options.outbox.repo.configOps(portalId).some((op) => moduleActionOf(op) !== null)) {
      return shown;
    }
    for (const module of this.modules(portalId).modules) {
      if (module.localOnly || module.state === 'trashed') continue;
      shown.set(module.id, {
        singularName: module.singularName,
        pluralName: module.pluralName,
        isActive: module.state === 'active',
      });
    }
    return shown;
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
    // Sent after the trash, a record's change meets a module the service no longer lists: it
    // reads as the record deleted there, and keeping it would create the record a second time.
    const waiting = this.options.outbox.repo.recordOpsOfModule(portalId, moduleId);
    if (waiting > 0) {
      throw new ConfigRefused(
        `${module.pluralName} has ${waiting === 1 ? 'a record change' : `${waiting.toLocaleString('en-US')} record changes`} waiting in the Outbox, which the service would refuse once the module is in the bin. Nothing was queued; send ${waiting === 1 ? 'it' : 'them'} (go online) or discard ${waiting === 1 ? 'it' : 'them'} in the Outbox, then move ${module.pluralName} to the bin.`,
      );
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

  // ---- layouts and sections ---------------------------------------------------------------------

  /** A module's layouts with their sections and fields, queued changes laid over. */
  layouts(portalId: string, moduleId: string): ConfigLayouts {
    const module = this.module(portalId, moduleId);
    if (module.state === 'trashed') {
      throw new ConfigRefused(`${module.pluralName} is in the module bin; recover it first.`);
    }
    const { mirrored, fields, keyOfFieldId } = this.mirroredLayouts(
      portalId,
      moduleId,
      module.localOnly,
    );
    // Field creations and deletions too: a field made here shows in its section, a deleted one goes.
    const ops = this.configOps(portalId).filter(
      (op) =>
        op.moduleId === moduleId && (layoutActionOf(op) !== null || fieldActionOf(op) !== null),
    );
    return {
      portalId,
      moduleId,
      module: module.pluralName,
      layouts: overlayLayouts(mirrored, ops, fields, keyOfFieldId),
    };
  }

  private mirroredLayouts(portalId: string, moduleId: string, localOnly: boolean) {
    const fields = new Map<string, PlacedField>();
    const keyOfFieldId = new Map<string, string>();
    if (localOnly) return { mirrored: [] as ConfigLayout[], fields, keyOfFieldId };
    for (const field of this.options.mirror.metadata.fields(portalId, moduleId)) {
      keyOfFieldId.set(field.id, field.apiName);
    }
    const columns = this.reader.columns(portalId, moduleId);
    for (const field of columns.fields) {
      fields.set(field.key, {
        key: field.key,
        label: field.label,
        type: field.type,
        system: field.system,
      });
    }
    const types = new Map(
      this.options.mirror.metadata.layouts(portalId, moduleId).map((l) => [l.id, l.type]),
    );
    const mirrored: ConfigLayout[] = columns.layouts.map((layout) => ({
      id: layout.id,
      name: layout.name,
      type: types.get(layout.id) === 'private' ? 'private' : 'public',
      isDefault: layout.isDefault,
      localOnly: false,
      pending: [],
      sections: layout.sections.map((section) => ({
        id: section.id,
        name: section.name,
        localOnly: false,
        fields: section.fields.flatMap((key) => fields.get(key) ?? []),
      })),
    }));
    return { mirrored, fields, keyOfFieldId };
  }

  private layout(portalId: string, moduleId: string, layoutId: string) {
    const view = this.layouts(portalId, moduleId);
    const layout = view.layouts.find((candidate) => candidate.id === layoutId);
    if (!layout) {
      throw new ConfigRefused(
        `Layout ${layoutId} is not among ${view.module}'s layouts here (deleted, or its creation discarded). Nothing was queued.`,
      );
    }
    return { view, layout };
  }

  private queueLayout(
    portalId: string,
    moduleId: string,
    action: LayoutAction,
    values: Record<string, unknown>,
    bases: Record<string, unknown> = {},
  ): ConfigLayouts {
    this.options.outbox.repo.insertOp({
      portalId,
      moduleId,
      recordId: layoutsQueue(moduleId),
      kind: 'config',
      action: layoutOpAction(action),
      fields: paramFields(values, bases),
    });
    this.options.outbox.configQueued(null);
    this.changed(portalId);
    return this.layouts(portalId, moduleId);
  }

  createLayout(args: {
    portalId: string;
    moduleId: string;
    name: string;
    type: 'public' | 'private';
    referenceId: string | null;
    /** A copy into a new module: a layout of this name the service made itself is taken instead. */
    adoptExisting?: boolean;
  }): ConfigLayouts {
    const view = this.layouts(args.portalId, args.moduleId);
    const problem = layoutNameProblem(args.name, view.layouts);
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    if (args.referenceId !== null && !view.layouts.some((l) => l.id === args.referenceId)) {
      throw new ConfigRefused(
        `Layout ${args.referenceId} to copy is not among ${view.module}'s layouts. Nothing was queued.`,
      );
    }
    return this.queueLayout(args.portalId, args.moduleId, 'createLayout', {
      layout_id: `${TEMP_LAYOUT_PREFIX}${randomBytes(8).toString('hex')}`,
      name: args.name.trim(),
      type: args.type,
      reference_id: args.referenceId ?? undefined,
      adopt_existing: args.adoptExisting === true ? true : undefined,
    });
  }

  updateLayout(args: {
    portalId: string;
    moduleId: string;
    layoutId: string;
    changes: { name?: string; type?: 'public' | 'private'; makeDefault?: true };
  }): ConfigLayouts {
    const { view, layout } = this.layout(args.portalId, args.moduleId, args.layoutId);
    const { name, type, makeDefault } = args.changes;
    if (name !== undefined) {
      const problem = layoutNameProblem(name, view.layouts, layout.id);
      if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    }
    const values = {
      layout_id: layout.id,
      name: name !== undefined && name.trim() !== layout.name ? name.trim() : undefined,
      type: type !== undefined && type !== layout.type ? type : undefined,
      is_default: makeDefault && !layout.isDefault ? true : undefined,
    };
    if (values.name === undefined && values.type === undefined && values.is_default === undefined) {
      return view;
    }
    // The name and type as shown now are the bases: the replay sends a setting only if the
    // service still has its base, so a rename made there meanwhile is a conflict.
    return this.queueLayout(
      args.portalId,
      args.moduleId,
      'updateLayout',
      { ...values, bases_kept: true },
      { name: layout.name, type: layout.type },
    );
  }

  deleteLayout(portalId: string, moduleId: string, layoutId: string): ConfigLayouts {
    const { view, layout } = this.layout(portalId, moduleId, layoutId);
    if (layout.isDefault) {
      throw new ConfigRefused(
        `“${layout.name}” is the default layout of ${view.module}; make another layout the default first. Nothing was queued.`,
      );
    }
    if (view.layouts.length === 1) {
      throw new ConfigRefused(
        `“${layout.name}” is the last layout of ${view.module}. Nothing was queued.`,
      );
    }
    const used = this.options.mirror.records.layoutUse(portalId, layout.id);
    if (used > 0) {
      throw new ConfigRefused(
        `“${layout.name}” is the layout of ${used} mirrored record${used === 1 ? '' : 's'}; the service keeps a layout its records use. Nothing was queued.`,
      );
    }
    return this.queueLayout(portalId, moduleId, 'deleteLayout', { layout_id: layout.id });
  }

  putSection(args: {
    portalId: string;
    moduleId: string;
    layoutId: string;
    sectionId?: string | undefined;
    name: string;
    position?: number | undefined;
    /** A copy into a new layout: a section of this name the service made itself is taken instead. */
    adoptExisting?: boolean;
  }): ConfigLayouts {
    const { layout } = this.layout(args.portalId, args.moduleId, args.layoutId);
    const section =
      args.sectionId === undefined
        ? undefined
        : layout.sections.find((candidate) => candidate.id === args.sectionId);
    if (args.sectionId !== undefined && !section) {
      throw new ConfigRefused(
        `Section ${args.sectionId} is not in “${layout.name}”. Nothing was queued.`,
      );
    }
    const problem = sectionNameProblem(args.name, layout.sections, section?.id ?? null);
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    const count = layout.sections.length + (section ? 0 : 1);
    if (args.position !== undefined && args.position > count) {
      throw new ConfigRefused(
        `Position ${args.position}: “${layout.name}” has ${count} section${count === 1 ? '' : 's'}. Nothing was queued.`,
      );
    }
    return this.queueLayout(args.portalId, args.moduleId, 'putSection', {
      layout_id: layout.id,
      section_id: section?.id,
      ...(section && copiedSection(layout, section)
        ? { section_copied: true, section_was: section.name }
        : {}),
      new_section_id: section
        ? undefined
        : `${TEMP_SECTION_PREFIX}${randomBytes(8).toString('hex')}`,
      name: args.name.trim(),
      position: args.position,
      // A layout made here gets sections of the service's own when it is made (the spec does not
      // say which; the emulator's are Overview, Details, Tracking): one of this name is taken.
      adopt_existing:
        !section && (args.adoptExisting === true || layout.localOnly) ? true : undefined,
    });
  }

  deleteSection(portalId: string, moduleId: string, layoutId: string, sectionId: string) {
    const { layout } = this.layout(portalId, moduleId, layoutId);
    const section = layout.sections.find((candidate) => candidate.id === sectionId);
    if (!section) {
      throw new ConfigRefused(
        `Section ${sectionId} is not in “${layout.name}”. Nothing was queued.`,
      );
    }
    if (layout.sections.length === 1) {
      throw new ConfigRefused(
        `“${section.name}” is the last section of “${layout.name}”; a layout keeps one. Nothing was queued.`,
      );
    }
    return this.queueLayout(portalId, moduleId, 'deleteSection', {
      layout_id: layout.id,
      section_id: section.id,
      section_name: section.name,
      section_copied: copiedSection(layout, section) || undefined,
    });
  }

  removeLayoutField(portalId: string, moduleId: string, layoutId: string, fieldKey: string) {
    const { layout } = this.layout(portalId, moduleId, layoutId);
    const field = layout.sections.flatMap((s) => s.fields).find((f) => f.key === fieldKey);
    if (!field) {
      throw new ConfigRefused(`${fieldKey} is not on “${layout.name}”. Nothing was queued.`);
    }
    if (field.system) {
      throw new ConfigRefused(
        `${field.label} is a system field; it stays on every layout. Nothing was queued.`,
      );
    }
    return this.queueLayout(portalId, moduleId, 'removeField', {
      layout_id: layout.id,
      field: field.key,
      field_label: field.label,
    });
  }

  // ---- placing and moving fields on a layout ---------------------------------------------------

  /**
   * Places a field of the module on a layout (`place`), or moves one on it within or across its
   * sections (`move`), at a 1-based place among the target section's other fields. Checked
   * against the layouts as shown (queued changes included); a move folds into the field's move
   * queued just before it (placeFieldOps.ts, planPlacement).
   */
  placeField(args: {
    portalId: string;
    moduleId: string;
    layoutId: string;
    fieldKey: string;
    mode: 'place' | 'move';
    sectionId: string;
    position: number;
  }): ConfigLayouts {
    const { portalId, moduleId } = args;
    const { view, layout } = this.layout(portalId, moduleId, args.layoutId);
    // A field made here is listed by its temporary id until the service names it.
    const field = this.fields(portalId, moduleId).fields.find(
      (candidate) => (candidate.apiName ?? candidate.id) === args.fieldKey,
    );
    if (!field) {
      throw new ConfigRefused(
        `${args.fieldKey} is not among ${view.module}'s fields here (deleted, or its creation discarded). Nothing was queued.`,
      );
    }
    const current = placementOf(layout, args.fieldKey);
    if (args.mode === 'place' && current) {
      throw new ConfigRefused(
        `${field.label} is already on “${layout.name}”, in ${current.section.name}; move it there instead. Nothing was queued.`,
      );
    }
    if (args.mode === 'move' && !current) {
      throw new ConfigRefused(
        `${field.label} is not on “${layout.name}”; add it to a section first. Nothing was queued.`,
      );
    }
    const problem = placementProblem(
      layout,
      args.fieldKey,
      field.label,
      args.sectionId,
      args.position,
    );
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    const section = layout.sections.find((candidate) => candidate.id === args.sectionId)!;
    const sectionCopied = copiedSection(layout, section);
    const change = {
      layoutId: layout.id,
      fieldId: field.id,
      sectionId: section.id,
      sectionName: section.name,
      sectionCopied,
      position: args.position,
    };
    const from = current ? { sectionId: current.section.id, position: current.position } : null;
    const repo = this.options.outbox.repo;
    let queued = false;
    repo.transaction(() => {
      const plan = planPlacement(repo.opsOfRecord(portalId, layoutsQueue(moduleId)), change, from);
      if (plan.kind === 'none') return;
      queued = true;
      if (plan.kind === 'fold') repo.rewriteOp(plan.seq, plan.fields);
      else if (plan.kind === 'drop') repo.deleteOp(plan.seq);
      else {
        repo.insertOp({
          portalId,
          moduleId,
          recordId: layoutsQueue(moduleId),
          kind: 'config',
          action: layoutOpAction('placeField'),
          fields: paramFields({
            layout_id: layout.id,
            section_id: section.id,
            section_name: section.name,
            section_copied: sectionCopied || undefined,
            field_id: field.id,
            field_label: field.label,
            field_type: field.type,
            field_system: field.system,
            position: args.position,
            placing: current === null,
            from_section_id: from?.sectionId ?? null,
            from_position: from?.position ?? null,
          }),
        });
      }
    });
    if (!queued) return view;
    this.options.outbox.configQueued(null);
    this.changed(portalId);
    return this.layouts(portalId, moduleId);
  }

  // ---- fields ----------------------------------------------------------------------------------

  /** A module's fields with their settings and layouts, queued changes laid over. */
  fields(portalId: string, moduleId: string): ConfigFields {
    const layouts = this.layouts(portalId, moduleId);
    const placedOn = new Map<string, { id: string; name: string }[]>();
    for (const layout of layouts.layouts) {
      for (const section of layout.sections) {
        for (const field of section.fields) {
          const list = placedOn.get(field.key) ?? [];
          if (!list.some((l) => l.id === layout.id))
            list.push({ id: layout.id, name: layout.name });
          placedOn.set(field.key, list);
        }
      }
    }
    const module = this.module(portalId, moduleId);
    const stored = module.localOnly ? [] : this.options.mirror.metadata.fields(portalId, moduleId);
    const mirrored: ConfigField[] = stored.map((field) => ({
      ...settingsOfProperty(
        field.displayName,
        field.isMandatory === 1,
        JSON.parse(field.fieldProperty) as Record<string, unknown>,
      ),
      id: field.id,
      apiName: field.apiName,
      type: field.fieldType,
      system: field.isDefault === 1,
      layouts: placedOn.get(field.apiName) ?? [],
      localOnly: false,
      pending: [],
    }));
    const ops = this.configOps(portalId).filter(
      (op) => op.moduleId === moduleId && fieldActionOf(op) !== null,
    );
    const layoutName = (id: string) => layouts.layouts.find((l) => l.id === id)?.name ?? 'a layout';
    // A field made here is on the layout it was created on, and on those it was placed on since.
    const fields = overlayFields(mirrored, ops, layoutName).map((field) =>
      field.localOnly
        ? {
            ...field,
            layouts: [
              ...field.layouts,
              ...(placedOn.get(field.id) ?? []).filter(
                (placed) => !field.layouts.some((own) => own.id === placed.id),
              ),
            ],
          }
        : field,
    );
    return { portalId, moduleId, module: layouts.module, fields };
  }

  private field(portalId: string, moduleId: string, fieldId: string) {
    const view = this.fields(portalId, moduleId);
    const field = view.fields.find((candidate) => candidate.id === fieldId);
    if (!field) {
      throw new ConfigRefused(
        `Field ${fieldId} is not among ${view.module}'s fields here (deleted, or its creation discarded). Nothing was queued.`,
      );
    }
    return { view, field };
  }

  private queueField(
    portalId: string,
    moduleId: string,
    action: FieldAction,
    values: Record<string, unknown>,
    bases: Record<string, unknown> = {},
  ): ConfigFields {
    this.options.outbox.repo.insertOp({
      portalId,
      moduleId,
      recordId: layoutsQueue(moduleId),
      kind: 'config',
      action: fieldOpAction(action),
      fields: paramFields(values, bases),
    });
    this.options.outbox.configQueued(null);
    this.changed(portalId);
    return this.fields(portalId, moduleId);
  }

  createField(args: {
    portalId: string;
    moduleId: string;
    type: string;
    settings: FieldSettings;
    layoutId: string;
    sectionId: string | null;
  }): ConfigFields {
    const view = this.fields(args.portalId, args.moduleId);
    const problem = firstFieldProblem(
      fieldSettingsProblems(args.type, args.settings, view.fields, null, true),
    );
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    const layout = this.layouts(args.portalId, args.moduleId).layouts.find(
      (candidate) => candidate.id === args.layoutId,
    );
    if (!layout) {
      throw new ConfigRefused(
        `Layout ${args.layoutId} is not among ${view.module}'s layouts. Nothing was queued.`,
      );
    }
    if (args.sectionId !== null && !layout.sections.some((s) => s.id === args.sectionId)) {
      throw new ConfigRefused(
        `Section ${args.sectionId} is not in “${layout.name}”. Nothing was queued.`,
      );
    }
    return this.queueField(args.portalId, args.moduleId, 'createField', {
      field_id: `${TEMP_FIELD_PREFIX}${randomBytes(8).toString('hex')}`,
      type: args.type,
      layout_id: layout.id,
      section_id: args.sectionId ?? undefined,
      ...args.settings,
      label: args.settings.label.trim(),
    });
  }

  updateField(args: {
    portalId: string;
    moduleId: string;
    fieldId: string;
    changes: Partial<FieldSettings>;
  }): ConfigFields {
    const { view, field } = this.field(args.portalId, args.moduleId, args.fieldId);
    if (field.system && Object.keys(args.changes).some((key) => key !== 'label')) {
      throw new ConfigRefused(
        `${field.label} is a system field: only its name can change. Nothing was queued.`,
      );
    }
    const problem = firstFieldProblem(
      fieldSettingsProblems(field.type, args.changes, view.fields, field.id, false),
    );
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    const changed = Object.fromEntries(
      Object.entries(args.changes).filter(
        ([key, value]) =>
          JSON.stringify(key === 'label' ? String(value).trim() : value) !==
          JSON.stringify(field[key as keyof FieldSettings]),
      ),
    );
    if (Object.keys(changed).length === 0) return view;
    if (typeof changed.label === 'string') changed.label = changed.label.trim();
    const repo = this.options.outbox.repo;
    const create = field.localOnly
      ? creationToFold(repo.opsOfRecord(args.portalId, layoutsQueue(args.moduleId)), field.id)
      : undefined;
    if (create) {
      repo.rewriteOp(create.seq, { ...create.fields, ...paramFields(changed) });
      this.options.outbox.configQueued(null);
      this.changed(args.portalId);
      return this.fields(args.portalId, args.moduleId);
    }
    // Each setting's base is what the view shows now: the replay sends it only if the service
    // still has that, so a change made there meanwhile is a conflict, not overwritten.
    const bases = Object.fromEntries(
      Object.keys(changed).map((key) => [key, field[key as keyof FieldSettings]]),
    );
    return this.queueField(
      args.portalId,
      args.moduleId,
      'updateField',
      { field_id: field.id, field_label: field.label, bases_kept: true, ...changed },
      bases,
    );
  }

  fieldUsage(portalId: string, moduleId: string, fieldId: string) {
    const { field } = this.field(portalId, moduleId, fieldId);
    return {
      layouts: field.layouts,
      records:
        field.apiName === null
          ? 0
          : this.options.mirror.records.fieldValueCount(portalId, moduleId, field.apiName),
    };
  }

  deleteField(portalId: string, moduleId: string, fieldId: string, confirmName: string) {
    const { field } = this.field(portalId, moduleId, fieldId);
    if (field.system) {
      throw new ConfigRefused(`${field.label} is a system field; it cannot be deleted.`);
    }
    const problem = fieldDeleteConfirmationProblem(confirmName, field.label);
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    // Deleted first (configuration goes first), the field would make the service refuse each
    // queued change holding a value of it whole: the user chooses what becomes of those first.
    const holding =
      field.apiName === null
        ? []
        : queuedRecordsHolding(this.options.outbox.repo, portalId, moduleId, field.apiName, null);
    if (holding.length > 0) {
      throw new ConfigRefused(
        `${recordChanges(holding.length)} waiting in the Outbox ${holding.length === 1 ? 'changes' : 'change'} ${field.label}; the service would refuse ${holding.length === 1 ? 'it' : 'them'} once the field is deleted. Nothing was queued; send ${holding.length === 1 ? 'it' : 'them'} (go online) or discard ${holding.length === 1 ? 'it' : 'them'} in the Outbox, then delete ${field.label}.`,
      );
    }
    return this.queueField(portalId, moduleId, 'deleteField', {
      field_id: field.id,
      field_label: field.label,
      // So the replay can clear its values here even when a sync has forgotten the field.
      field_api_name: field.apiName,
    });
  }

  // ---- options -----------------------------------------------------------------------------------

  /** A pick list's or multi-select's options in order, with usage, queued changes laid over. */
  fieldOptions(portalId: string, moduleId: string, fieldId: string): ConfigOptions {
    const { field } = this.field(portalId, moduleId, fieldId);
    if (field.type !== 'pick_list' && field.type !== 'multi_select') {
      throw new ConfigRefused(
        `${field.label} is a ${field.type} field; only pick lists and multi-selects have options.`,
      );
    }
    const use =
      field.apiName === null
        ? new Map<string, number>()
        : this.options.mirror.records.optionUse(portalId, moduleId, field.apiName);
    return {
      portalId,
      moduleId,
      fieldId,
      field: field.label,
      type: field.type,
      max: maxOptionsOf(field.type),
      options: this.optionsOf(portalId, moduleId, [field], use).get(field.id) ?? [],
    };
  }

  /**
   * The options of a module's pick lists and multi-selects (of `fields`, as a fields view gave
   * them), queued changes laid over, read once for all of them; record counts only when `use` is
   * given (counting scans the module's records, which a copy does not need).
   */
  optionsOf(
    portalId: string,
    moduleId: string,
    fields: readonly ConfigField[],
    use: ReadonlyMap<string, number> = new Map(),
  ): Map<string, ConfigOption[]> {
    const choices = fields.filter((f) => f.type === 'pick_list' || f.type === 'multi_select');
    const result = new Map<string, ConfigOption[]>();
    if (choices.length === 0) return result;
    const stored = this.options.mirror.metadata
      .moduleOptions(portalId, moduleId)
      .filter((option) => option.kind === 'custom_option');
    const ops = this.configOps(portalId).filter((op) => optionActionOf(op) !== null);
    for (const field of choices) {
      const mirrored: ConfigOption[] = field.localOnly
        ? []
        : stored
            .filter((option) => option.fieldId === field.id)
            .map((option) => ({
              id: option.valueId,
              name: option.value ?? '',
              records: use.get(option.value ?? '') ?? 0,
              localOnly: false,
              pending: [],
            }));
      const own = ops.filter((op) => param(op, 'field_id') === field.id);
      result.set(field.id, overlayOptions(mirrored, own));
    }
    return result;
  }

  changeOptions(args: {
    portalId: string;
    moduleId: string;
    fieldId: string;
    add?: string[] | undefined;
    rename?: { id: string; name: string }[] | undefined;
    move?: { id: string; position: number } | undefined;
    remove?: string[] | undefined;
  }): ConfigOptions {
    // Record changes settled since a rename went on without them follow it before anything else
    // reads or relabels them (the replay's own follow may have been cut short by a crash).
    this.followSettled(args.portalId, args.moduleId);
    const view = this.fieldOptions(args.portalId, args.moduleId, args.fieldId);
    const byId = new Map(view.options.map((option) => [option.id, option]));
    const require = (id: string) => {
      const option = byId.get(id);
      if (!option) {
        throw new ConfigRefused(
          `Option ${id} is not an option of ${view.field}. Nothing was queued.`,
        );
      }
      return option;
    };
    const added = (args.add ?? []).map((name) => ({
      id: `${TEMP_OPTION_PREFIX}${randomBytes(8).toString('hex')}`,
      name: name.trim(),
    }));
    const renamed = (args.rename ?? []).map((change) => ({
      ...require(change.id),
      name: change.name.trim(),
    }));
    const removed = (args.remove ?? []).map(require);
    if (args.move) {
      require(args.move.id);
      if (args.move.position > view.options.length) {
        throw new ConfigRefused(
          `Place ${args.move.position}: ${view.field} has ${view.options.length} options. Nothing was queued.`,
        );
      }
    }
    // The options as they will be: the rules judge the whole list (names unique, the field's max).
    const after = view.options
      .filter((option) => !removed.some((gone) => gone.id === option.id))
      .map((option) => renamed.find((r) => r.id === option.id) ?? option)
      .concat(added.map((option) => ({ ...option, records: 0, localOnly: true, pending: [] })));
    const problem = optionsProblem(view.type, after);
    if (problem) throw new ConfigRefused(`${problem} Nothing was queued.`);
    const choice = this.choiceField(args.portalId, args.moduleId, args.fieldId);
    const repo = this.options.outbox.repo;
    if (choice && removed.length > 0) {
      // Removed first (configuration goes first), the option would be cleared from those
      // records or their changes refused whole: the user chooses first, nothing is lost unseen.
      const names = new Set(removed.map((option) => option.name));
      const holding = queuedRecordsHolding(
        repo,
        args.portalId,
        args.moduleId,
        choice.apiName,
        names,
      );
      if (holding.length > 0) {
        const held = [...names].filter((name) =>
          holding.some((op) => holdsValueOf(op.fields, choice.apiName, new Set([name]))),
        );
        const n = holding.length;
        throw new ConfigRefused(
          `${recordChanges(n)} waiting in the Outbox ${n === 1 ? 'holds' : 'hold'} ${held.map((name) => `“${name}”`).join(', ')} in ${view.field}; removed first, the option would be cleared from ${n === 1 ? 'that record' : 'those records'} or ${n === 1 ? 'the change' : 'the changes'} refused. Nothing was queued; choose another option there, or send (go online) or discard ${n === 1 ? 'it' : 'them'} in the Outbox, then remove the option.`,
        );
      }
    }
    const base = { field_id: args.fieldId, field_label: view.field };
    repo.transaction(() => {
      const insert = (action: OptionAction, values: Record<string, unknown>) =>
        repo.insertOp({
          portalId: args.portalId,
          moduleId: args.moduleId,
          recordId: layoutsQueue(args.moduleId),
          kind: 'config',
          action: optionOpAction(action),
          fields: paramFields({ ...base, ...values }),
        });
      // The service takes each request against the options as they are then, while the rules
      // above judged the end state: names are freed (removed, renamed away) before they are
      // taken (renamed to, added), or "rename Network away, add Network" is refused as a
      // duplicate and stalls the queue. The move goes first: removals after it and additions at
      // the end leave its place where the view showed it, as in the order queued before.
      if (args.move) {
        insert('moveOption', {
          options: [{ id: args.move.id, name: byId.get(args.move.id)!.name }],
          position: args.move.position,
        });
      }
      if (removed.length > 0) {
        const cleared = choice
          ? clearRemovedBases(
              this.ledgerStores(),
              args.portalId,
              args.moduleId,
              choice,
              new Set(removed.map((option) => option.name)),
            )
          : [];
        // Record changes being sent keep the bases that left; they follow once they settle.
        const inFlight = choice
          ? inFlightSetting(repo.valueOpsOfModule(args.portalId, args.moduleId), choice.apiName)
          : [];
        insert('removeOptions', {
          options: removed.map(({ id, name }) => ({ id, name })),
          cleared_bases: cleared.length > 0 ? cleared : undefined,
          in_flight:
            choice && inFlight.length > 0 ? { field: choice.apiName, seqs: inFlight } : undefined,
        });
      }
      const renames = renamed.filter(
        (option) =>
          option.name !== byId.get(option.id)!.name &&
          !removed.some((gone) => gone.id === option.id),
      );
      if (renames.length > 0) {
        // Record changes being sent keep the bodies that left; they follow once they settle.
        const inFlight = choice
          ? inFlightSetting(repo.valueOpsOfModule(args.portalId, args.moduleId), choice.apiName)
          : [];
        insert('renameOptions', {
          options: renames.map(({ id, name }) => ({ id, name })),
          was: Object.fromEntries(renames.map((option) => [option.id, byId.get(option.id)!.name])),
          in_flight:
            choice && inFlight.length > 0 ? { field: choice.apiName, seqs: inFlight } : undefined,
        });
        // Sent after the rename, the module's queued record changes must name it as it will be.
        if (choice) {
          const relabel = new Map(renames.map((o) => [byId.get(o.id)!.name, o.name]));
          relabelQueuedRecords(this.ledgerStores(), args.portalId, args.moduleId, choice, relabel);
        }
      }
      if (added.length > 0) insert('addOptions', { options: added });
    });
    this.options.outbox.configQueued({ portalId: args.portalId, moduleId: args.moduleId });
    this.changed(args.portalId);
    return this.fieldOptions(args.portalId, args.moduleId, args.fieldId);
  }

  /**
   * Options renamed on the service (a sync found them, and the mirror's records followed): the
   * module's queued record changes naming an old name follow too, value and base, as they follow
   * a rename queued here. Otherwise the service refuses such a change whole (the option no longer
   * has that name) and a base naming it meets the new name as a conflict nobody made. A field
   * with option changes queued here is left to them: they hold the names those will make.
   */
  optionsRenamedThere(change: OptionsRenamedThere): void {
    const { portalId, moduleId, field } = change;
    const repo = this.options.outbox.repo;
    const fieldId = this.options.mirror.metadata
      .fields(portalId, moduleId)
      .find((f) => f.apiName === field.apiName)?.id;
    if (fieldId === undefined) return;
    const queued = repo
      .opsOfRecord(portalId, configQueueOf(moduleId))
      .some((op) => optionActionOf(op) !== null && param(op, 'field_id') === fieldId);
    if (queued) return;
    let changed = 0;
    repo.transaction(() => {
      changed = relabelQueuedRecords(
        this.ledgerStores(),
        portalId,
        moduleId,
        field,
        new Map(change.relabel),
      );
    });
    if (changed > 0) this.options.outbox.queuedElsewhere({ portalId, moduleId });
  }

  /**
   * Record changes in flight when an option rename or removal was queued that have settled
   * undelivered follow the changes they missed (queuedRecordOptions.ts), in one transaction.
   */
  private followSettled(portalId: string, moduleId: string): void {
    const followed = this.options.outbox.repo.transaction(() =>
      followSettledRecords(this.ledgerStores(), portalId, moduleId),
    );
    if (followed > 0) this.options.outbox.queuedElsewhere({ portalId, moduleId });
  }

  /** A pick list or multi-select as its values sit in queued record changes; null if none can. */
  private choiceField(portalId: string, moduleId: string, fieldId: string): ChoiceField | null {
    const { field } = this.field(portalId, moduleId, fieldId);
    if (field.apiName === null) return null;
    return { apiName: field.apiName, multi: field.type === 'multi_select' };
  }

  private ledgerStores() {
    return {
      repo: this.options.outbox.repo,
      edits: this.options.mirror.localEdits,
      now: this.options.now ?? Date.now,
    };
  }

  /**
   * An option addition is not discarded while a queued record change holds the option (by the
   * name later renames give it): without it the service would refuse that change whole. Throws
   * inside the discard's transaction, so nothing is discarded.
   */
  private refuseAddDiscard(op: OutboxOp, apiName: string): void {
    const names = new Map(optionsOf(op).map((option) => [option.id, option.name]));
    for (const later of this.options.outbox.repo.opsOfRecord(op.portalId, op.recordId)) {
      if (optionActionOf(later) !== 'renameOptions') continue;
      for (const option of optionsOf(later)) {
        if (names.has(option.id)) names.set(option.id, option.name);
      }
    }
    const held = new Set(names.values());
    const holding = queuedRecordsHolding(
      this.options.outbox.repo,
      op.portalId,
      op.moduleId,
      apiName,
      held,
    );
    if (holding.length === 0) return;
    const n = holding.length;
    throw new LedgerError(
      `${recordChanges(n)} waiting in the Outbox ${n === 1 ? 'holds' : 'hold'} ${[...held].map((name) => `“${name}”`).join(', ')}, which this change adds; without it the service would refuse ${n === 1 ? 'that change' : 'those changes'}. Nothing was discarded; choose another option there, or discard ${n === 1 ? 'it' : 'them'} first.`,
    );
  }

  /**
   * A rename is not discarded when a change queued after it takes the name it gives back (free
   * once renamed away): the service would refuse that change, and the queue stall behind it.
   * Judged against the field's options as mirrored, each change in turn as the service takes
   * them; a queue the service would refuse already is not held against the discard. Throws
   * inside the discard's transaction, so nothing is discarded.
   */
  private refuseNameClash(
    op: OutboxOp,
    field: { id: string },
    queue: readonly OutboxOp[],
    rewrites: RenameDiscard['rewrites'],
  ): void {
    const mirrored = this.mirroredOptions(op.portalId, op.moduleId, field.id);
    const withIt = [...queue, op].sort((a, b) => a.seq - b.seq);
    if (optionQueueClash(mirrored, withIt) !== null) return;
    const rewritten = new Map(rewrites.map(({ seq, fields }) => [seq, fields]));
    const after = queue.flatMap((other) => {
      const fields = rewritten.get(other.seq);
      if (fields === undefined) return [other];
      return fields === null ? [] : [{ ...other, fields }];
    });
    const clash = optionQueueClash(mirrored, after);
    if (!clash) return;
    throw new LedgerError(
      `Discarding this rename gives “${clash.name}” back to its option, but a change queued after it takes that name (${optionSummary(clash.op)}), and the service would refuse it. Nothing was discarded; discard that change first.`,
    );
  }

  /**
   * An option rename or removal discarded in the Outbox (inside its transaction): the module's
   * queued record changes that followed it go back to the names the options keep, or get back
   * the bases the removal cleared; later changes of a renamed option start from the name kept.
   */
  private optionsDiscarded(op: OutboxOp): void {
    const action = optionActionOf(op);
    // Thrown inside the discard's transaction: nothing is discarded.
    const lost = lostAnswerDiscardProblem(op);
    if (lost !== null) throw new LedgerError(lost);
    const fieldId = String(param(op, 'field_id'));
    const field = this.options.mirror.metadata
      .fields(op.portalId, op.moduleId)
      .find((candidate) => candidate.id === fieldId);
    if (!field) return;
    if (action === 'addOptions') {
      this.refuseAddDiscard(op, field.apiName);
      return;
    }
    if (action !== 'renameOptions' && action !== 'removeOptions') return;
    if (action === 'removeOptions') {
      const cleared = param<ClearedBase[]>(op, 'cleared_bases') ?? [];
      restoreClearedBases(this.ledgerStores(), field.apiName, cleared);
      this.rebaseAfterRemoval(op, field);
      return;
    }
    // Later changes of the same options rename, move or remove them from the name the service
    // keeps; the queued record changes go back to it, but for options a later change names.
    const repo = this.options.outbox.repo;
    const queue = repo
      .opsOfRecord(op.portalId, op.recordId)
      .filter((other) => optionActionOf(other) !== null && param(other, 'field_id') === fieldId);
    const later = queue.filter((other) => other.seq > op.seq);
    const { rewrites, relabel } = planRenameDiscard(op, later);
    this.refuseNameClash(op, field, queue, rewrites);
    for (const { seq, fields } of rewrites) {
      const other = later.find((candidate) => candidate.seq === seq)!;
      if (fields === null) repo.deleteOp(seq);
      else repo.restoreOp(seq, fields, opStatus(other));
    }
    relabelQueuedRecords(
      this.ledgerStores(),
      op.portalId,
      op.moduleId,
      { apiName: field.apiName, multi: field.fieldType === 'multi_select' },
      relabel,
    );
  }

  /**
   * A discarded removal (already out of the queue): record changes queued after it, based on the
   * option cleared, are based on what the service keeps (basesBackAfterRemoval). What the service
   * will hold is the mirror's copy with the field's queued option changes laid over it, with the
   * removal and without it.
   */
  private rebaseAfterRemoval(removal: OutboxOp, field: { id: string; apiName: string }): void {
    const repo = this.options.outbox.repo;
    const mirrored = this.mirroredOptions(removal.portalId, removal.moduleId, field.id);
    const queue = repo
      .opsOfRecord(removal.portalId, removal.recordId)
      .filter((other) => param(other, 'field_id') === field.id);
    const names = (ops: readonly OutboxOp[]) => {
      const after = new Map(overlayOptions(mirrored, ops).map((o) => [o.id, o.name]));
      return new Map(mirrored.map((o) => [o.name, after.get(o.id) ?? null]));
    };
    const withRemoval = names([...queue, removal].sort((a, b) => a.seq - b.seq));
    const without = names(queue);
    const edits = this.options.mirror.localEdits;
    const rebased = basesBackAfterRemoval(
      repo.valueOpsOfModule(removal.portalId, removal.moduleId),
      removal.seq,
      field.apiName,
      (recordId, withIt) => {
        const record = edits.record(removal.portalId, recordId);
        const custom = record ? parseJsonObject(record.custom) : {};
        return relabelled(custom[field.apiName] ?? null, withIt ? withRemoval : without);
      },
    );
    for (const { op, fields } of rebased) {
      repo.restoreOp(op.seq, fields, opStatus(op));
      refreshOverlay(this.ledgerStores(), op.portalId, op.recordId);
    }
  }

  /** A field's options as the mirror has them (the service's, before queued changes). */
  private mirroredOptions(portalId: string, moduleId: string, fieldId: string): ConfigOption[] {
    return this.options.mirror.metadata
      .moduleOptions(portalId, moduleId)
      .filter((option) => option.fieldId === fieldId && option.kind === 'custom_option')
      .map((option) => ({
        id: option.valueId,
        name: option.value ?? '',
        records: 0,
        localOnly: false,
        pending: [],
      }));
  }

  /**
   * A portal's queued configuration changes for the views, each one held behind a refused or
   * conflicting change of its queue saying so (configQueueHolds.ts), not merely "waiting".
   */
  private configOps(portalId: string): OutboxOp[] {
    return withQueueHolds(
      this.options.outbox.repo.configOps(portalId),
      (op) => this.describe(op).summary,
    );
  }

  /**
   * How the Outbox shows a configuration operation. Its module is named as the mirror has it,
   * else by the names a sync kept when it found the module gone (trashed by another admin).
   */
  private describe(op: OutboxOp): NonNullable<OutboxEntry['config']> {
    if (isFieldChoiceOp(op)) return fieldChoicesDescribe(op, this.options.mirror);
    if (optionActionOf(op) !== null) {
      const module = this.options.mirror.metadata.moduleNames(op.portalId, op.moduleId);
      return {
        action: op.action ?? 'option',
        target: `${module?.pluralName ?? 'module'} · ${String(param(op, 'field_label') ?? 'field')}`,
        summary: optionSummary(op),
        request: optionRequest(op, module?.apiName ?? null),
      };
    }
    if (fieldActionOf(op) !== null) {
      const module = this.options.mirror.metadata.moduleNames(op.portalId, op.moduleId);
      return {
        action: op.action ?? 'field',
        target: `${module?.pluralName ?? 'module'} · fields`,
        summary: fieldSummary(op),
        request: fieldRequest(op, module?.apiName ?? null),
      };
    }
    if (layoutActionOf(op) !== null) {
      const module = this.options.mirror.metadata.moduleNames(op.portalId, op.moduleId);
      const layoutId = param(op, 'layout_id');
      const layoutName =
        typeof param(op, 'name') === 'string' && layoutActionOf(op) === 'createLayout'
          ? String(param(op, 'name'))
          : (this.options.mirror.metadata
              .layouts(op.portalId, op.moduleId)
              .find((layout) => layout.id === layoutId)?.name ?? `layout ${String(layoutId)}`);
      return {
        action: op.action ?? 'layout',
        target: `${module?.pluralName ?? 'module'} · ${layoutName}`,
        summary: layoutSummary(op),
        request: layoutRequest(op, module?.apiName ?? null),
      };
    }
    if (binActionOf(op) !== null) {
      return {
        action: op.action ?? 'bin',
        target: 'Recycle bin',
        summary: binSummary(op),
        request: binRequest(op),
      };
    }
    // The mirror's names, else those kept when a sync found the module gone (modules_gone).
    const mirrored = this.options.mirror.metadata.moduleNames(op.portalId, op.moduleId);
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
    // The records workspace shows modules' names and layouts too: it reads its navigation again.
    this.options.events.push('records.changed', `${portalId}/`, () => ({
      portalId,
      moduleId: null,
    }));
  }
}

/** Project names the mirror knows from modules' project lists, by id. */
/**
 * A section of a layout copied here and not created yet: on screen with the original layout's
 * section id, so its changes name it by name too (the replay finds the copy's own id).
 */
function copiedSection(layout: ConfigLayout, section: { id: string }): boolean {
  return layout.localOnly && !section.id.startsWith(TEMP_SECTION_PREFIX);
}

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
