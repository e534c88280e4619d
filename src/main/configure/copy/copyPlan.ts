/**
 * The plan of a configuration copy (pure): the source's modules (a configuration file's) laid
 * against the target portal's configuration as it will be once its Outbox has sent, item by item:
 * what is created, changed, left alone, or cannot be copied as it stands, each with the changes it
 * makes and the calls its replay costs. Applying queues each item's steps in order
 * (applyCopyPlan.ts); the steps name what earlier steps create by plan references (`@…`).
 *
 * Matching (the issue: "matched by API name"): a module by its API name, a custom field by its API
 * name in its module; a module or field created here and not sent yet has none, so it is matched
 * by its plural name or its label. Layouts have no API name: matched by name in their module,
 * sections by name in their layout (both are unique there, as the service keeps them).
 *
 * What a copy never does: delete or rename away anything the target has (layouts, sections, fields
 * and options only in the target stay), change a field's type, or choose projects (they differ
 * between portals: a module created by a copy is on all projects).
 */
import type { CreateModuleArgs, FieldSettings } from '../../../shared/ipc/areas/configure';
import type { PlanItem } from '../../../shared/ipc/areas/configCopy';
import {
  firstProblem,
  MODULE_SETTING_LABEL,
  moduleSettingsProblems,
  nameClash,
} from '../../../shared/configRules/moduleRules';
import { FIELD_SETTING_KEYS, FIELD_SETTING_LABEL, fieldSettingsOf } from '../fieldOps';
import { fieldSettingsProblems, firstFieldProblem } from '../../../shared/configRules/fieldRules';
import { layoutNameProblem, sectionNameProblem } from '../../../shared/configRules/layoutRules';
import { maxOptionsOf, optionNameProblem } from '../../../shared/configRules/optionRules';
import { statusColorProblem, statusNameProblem } from '../../../shared/configRules/statusRules';
import type { DocumentField, DocumentModule } from './configurationDocument';
import type { PortalField, PortalLayout, PortalModule } from './portalConfiguration';

/** A target id, or `@…`: what an earlier step of the same plan creates. */
export type Ref = string;
export const isPlanRef = (ref: Ref) => ref.startsWith('@');

export type CopyStep =
  | { do: 'createModule'; ref: Ref; settings: Omit<CreateModuleArgs, 'portalId'> }
  | { do: 'updateModule'; module: Ref; changes: Partial<ModuleCopied> }
  | {
      do: 'createLayout';
      ref: Ref;
      module: Ref;
      name: string;
      type: 'public' | 'private';
      /** Take a layout of this name the service already made (a new module's own) instead. */
      adopt: boolean;
    }
  | {
      do: 'updateLayout';
      module: Ref;
      layout: Ref;
      changes: { type?: 'public' | 'private'; makeDefault?: true };
    }
  | { do: 'putSection'; ref: Ref; module: Ref; layout: Ref; name: string; adopt: boolean }
  | {
      do: 'createField';
      ref: Ref;
      module: Ref;
      type: string;
      settings: FieldSettings;
      layout: Ref;
      section: Ref | null;
    }
  | { do: 'updateField'; module: Ref; field: Ref; changes: Partial<FieldSettings> }
  | { do: 'addOptions'; module: Ref; field: Ref; names: string[] }
  | {
      do: 'addStatuses';
      module: Ref;
      /** Added without transitions: the service checks those before it creates anything. */
      statuses: { ref: Ref; name: string; color: string; closed: boolean }[];
    }
  | {
      do: 'updateStatuses';
      module: Ref;
      changes: { status: Ref; color?: string; closed?: boolean; transitions?: Ref[] }[];
    }
  | {
      do: 'placeField';
      module: Ref;
      layout: Ref;
      section: Ref;
      /** The field as sections list it: its API name, or what a step of this plan creates. */
      field: Ref;
      label: string;
    };

export interface PlannedItem extends PlanItem {
  steps: CopyStep[];
}

/** The module settings a copy carries over (projects never; global-ness is fixed at creation). */
interface ModuleCopied {
  singularName: string;
  pluralName: string;
  iconClass: string | null;
  isOverviewNeeded: boolean;
  defaultLayoutType: 'public' | 'private';
}
const MODULE_SETTINGS: readonly (keyof ModuleCopied)[] = [
  'singularName',
  'pluralName',
  'iconClass',
  'isOverviewNeeded',
  'defaultLayoutType',
];

// ---- calls ----------------------------------------------------------------------------------

const FIELDS_CONFIGURATION = 'GET /settings/fields-configuration';

/**
 * The calls a step's replay makes, by endpoint as the rate limit counts them (method and path
 * template): what sendModuleOp, sendLayoutOp, sendFieldOp and sendOptionOp do when nothing is
 * lost. Every layout and field change reads the module's fields-configuration after its answer.
 */
export function stepCalls(step: CopyStep): string[] {
  switch (step.do) {
    case 'createModule':
      return ['POST /settings/modules'];
    case 'updateModule':
      // A fresh GET first: a setting changed on the service meanwhile is a conflict, not overwritten.
      return [
        'GET /settings/modules/{module_api_name}',
        'PATCH /settings/modules/{module_api_name}',
      ];
    case 'createLayout':
      return [
        ...(step.adopt ? ['GET /settings/layouts'] : []),
        'POST /settings/layouts',
        FIELDS_CONFIGURATION,
      ];
    case 'updateLayout':
      return ['PATCH /settings/layouts/{layout_id}', FIELDS_CONFIGURATION];
    case 'putSection':
      return [
        ...(step.adopt ? ['GET /settings/layouts/{layout_id}'] : []),
        'PUT /settings/layouts/{layout_id}/sections',
        FIELDS_CONFIGURATION,
      ];
    case 'createField':
    case 'updateField':
      return ['PUT /settings/fields', FIELDS_CONFIGURATION];
    case 'addOptions':
      return ['POST /settings/options'];
    case 'placeField':
      return ['PUT /settings/fields', FIELDS_CONFIGURATION];
    case 'addStatuses':
      return ['POST /settings/options', 'GET /settings/options'];
    case 'updateStatuses':
      return ['PATCH /settings/options', 'GET /settings/options'];
  }
}

// ---- helpers --------------------------------------------------------------------------------

/**
 * Names as the service compares them: layout, section, option, status and module names are
 * unique but for case there (the emulator refuses "LEGAL" beside "Legal"; the spec is silent).
 */
const caseless = (name: string) => name.trim().toLowerCase();
const same = (a: string, b: string) => caseless(a) === caseless(b);

/**
 * What the plan says when it takes the target's layout or sections for the source's whose names
 * differ only in case: taken, their names as the target has them (a copy renames nothing).
 */
function caseNote(
  layout: { theirs: string; mine: string } | null,
  sections: readonly { theirs: string; mine: string }[],
): string | null {
  if (!layout && sections.length === 0) return null;
  const taken = [
    ...(layout
      ? [`the target’s layout ${quote(layout.theirs)} is taken as ${quote(layout.mine)}`]
      : []),
    ...sections.map(
      (section, i) =>
        `${i === 0 && !layout ? 'the target’s section' : 'its section'} ${quote(section.theirs)} as ${quote(section.mine)}`,
    ),
  ];
  const many = taken.length > 1;
  const listed = many ? `${taken.slice(0, -1).join(', ')}, and ${taken.at(-1)!}` : taken[0]!;
  return `Names differ only in case, which the service counts as the same name: ${listed}; ${many ? 'their names are' : 'its name is'} kept.`;
}

/** Sections of one source layout named alike but for case: one section to the service. */
function sourceCaseTwins(sections: readonly { name: string }[]): string | null {
  const first = new Map<string, string>();
  const twins: string[] = [];
  for (const section of sections) {
    const known = first.get(caseless(section.name));
    if (known === undefined) first.set(caseless(section.name), section.name);
    else {
      twins.push(
        `${quote(section.name)} is the section ${quote(known)} to the service, which counts names that differ only in case as the same name: its fields go there.`,
      );
    }
  }
  return twins.length > 0 ? twins.join(' ') : null;
}
const quote = (text: string) => `“${text}”`;
const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '(none)'
    : typeof value === 'boolean'
      ? value
        ? 'yes'
        : 'no'
      : String(value);

function item(
  key: string,
  module: string,
  kind: PlanItem['kind'],
  action: PlanItem['action'],
  summary: string,
  rest: { detail?: string | null; changes?: PlanItem['changes']; steps?: CopyStep[] } = {},
): PlannedItem {
  const steps = rest.steps ?? [];
  return {
    key,
    module,
    kind,
    action,
    summary,
    detail: rest.detail ?? null,
    changes: rest.changes ?? [],
    calls: steps.reduce((sum, step) => sum + stepCalls(step).length, 0),
    steps,
  };
}

function matchModule(source: DocumentModule, target: readonly PortalModule[]) {
  if (source.apiName !== null) {
    const byApi = target.find((module) => module.apiName === source.apiName);
    if (byApi) return byApi;
  }
  // Without an API name on either side (created here, not sent yet), the plural name decides.
  return target.find(
    (module) =>
      (source.apiName === null || module.apiName === null) &&
      same(module.pluralName, source.pluralName),
  );
}

function matchField(source: DocumentField, target: readonly PortalField[]) {
  if (source.apiName !== null) {
    const byApi = target.find((field) => field.apiName === source.apiName);
    if (byApi) return byApi;
  }
  return target.find(
    (field) =>
      (source.apiName === null || field.apiName === null) && same(field.label, source.label),
  );
}

/** Where a field sits in the source: its first layout (in order) and section placing it. */
function firstPlace(source: DocumentModule, field: DocumentField) {
  if (field.apiName === null) return null;
  for (const [layoutIndex, layout] of source.layouts.entries()) {
    for (const [sectionIndex, section] of layout.sections.entries()) {
      if (section.fields.includes(field.apiName)) return { layoutIndex, sectionIndex };
    }
  }
  return null;
}

function changesOf<T, K extends keyof T & string>(
  keys: readonly K[],
  labels: Record<K, string>,
  from: Pick<T, K>,
  to: Pick<T, K>,
) {
  const changed: Partial<Pick<T, K>> = {};
  const lines: PlanItem['changes'] = [];
  for (const key of keys) {
    if (JSON.stringify(from[key] ?? null) === JSON.stringify(to[key] ?? null)) continue;
    changed[key] = to[key];
    lines.push({ setting: labels[key], from: shown(from[key]), to: shown(to[key]) });
  }
  return { changed, lines };
}

// ---- one module -----------------------------------------------------------------------------

interface ModulePlan {
  items: PlannedItem[];
}

/** Plan references of what a module's plan creates: layouts, sections and fields by index. */
class Refs {
  constructor(private readonly prefix: string) {}
  module = () => `@${this.prefix}`;
  layout = (l: number) => `@${this.prefix}/l${l}`;
  section = (l: number, s: number) => `@${this.prefix}/l${l}/s${s}`;
  field = (f: number) => `@${this.prefix}/f${f}`;
  status = (s: number) => `@${this.prefix}/st${s}`;
}

function planLayouts(
  source: DocumentModule,
  target: PortalModule | undefined,
  moduleRef: Ref,
  refs: Refs,
): { items: PlannedItem[]; layoutIds: Ref[]; sectionIds: Ref[][] } {
  const items: PlannedItem[] = [];
  const layoutIds: Ref[] = [];
  const sectionIds: Ref[][] = [];
  const moduleName = source.pluralName;
  const targetLayouts: readonly PortalLayout[] = target?.layouts ?? [];
  // The service keeps a module's layout names unique but for case (as a layout's section names):
  // a second layout of the source named so is the first one to it, and cannot be made.
  const firstNamed = new Map<string, string>();
  for (const [l, layout] of source.layouts.entries()) {
    const key = `layout:${source.apiName ?? source.pluralName}/${layout.name}`;
    const first = firstNamed.get(caseless(layout.name));
    if (first !== undefined) {
      items.push(
        item(key, moduleName, 'layout', 'blocked', `Layout ${quote(layout.name)}`, {
          detail: `The source has a layout ${quote(first)} in ${quote(moduleName)} too; the service counts names that differ only in case as the same name, so only that one is copied. Rename one of them in the source, then plan again.`,
        }),
      );
      layoutIds.push('');
      sectionIds.push(layout.sections.map(() => ''));
      continue;
    }
    firstNamed.set(caseless(layout.name), layout.name);
    const match = targetLayouts.find((candidate) => same(candidate.name, layout.name));
    if (!match) {
      // A new module's own default layout (the service makes one) or a new layout's own sections
      // (the service may give it some) are taken when their names match, never made twice.
      const adopt = target === undefined;
      const problem = layoutNameProblem(layout.name, targetLayouts);
      if (problem) {
        items.push(
          item(key, moduleName, 'layout', 'blocked', `Layout ${quote(layout.name)}`, {
            detail: problem,
          }),
        );
        layoutIds.push('');
        sectionIds.push(layout.sections.map(() => ''));
        continue;
      }
      const ref = refs.layout(l);
      layoutIds.push(ref);
      const steps: CopyStep[] = [
        {
          do: 'createLayout',
          ref,
          module: moduleRef,
          name: layout.name.trim(),
          type: layout.type,
          adopt,
        },
      ];
      // A section named as an earlier one but for case is that one to the service: its fields
      // go there, and it is not made twice.
      const sectionRefs = new Map<string, Ref>();
      const sectionNames: string[] = [];
      const sections = layout.sections.map((section, s) => {
        const known = sectionRefs.get(caseless(section.name));
        if (known !== undefined) return known;
        const sectionRef = refs.section(l, s);
        steps.push({
          do: 'putSection',
          ref: sectionRef,
          module: moduleRef,
          layout: ref,
          name: section.name.trim(),
          adopt: true,
        });
        sectionRefs.set(caseless(section.name), sectionRef);
        sectionNames.push(section.name.trim());
        return sectionRef;
      });
      sectionIds.push(sections);
      if (layout.isDefault) {
        steps.push({
          do: 'updateLayout',
          module: moduleRef,
          layout: ref,
          changes: { makeDefault: true },
        });
      }
      const names = sectionNames.join(', ');
      const merged = sourceCaseTwins(layout.sections);
      items.push(
        item(
          key,
          moduleName,
          'layout',
          'create',
          `Create layout ${quote(layout.name)} (${layout.type}${layout.isDefault ? ', the default' : ''})`,
          {
            detail:
              (layout.sections.length > 0 ? `Sections: ${names}.` : 'No sections.') +
              (merged ? ` ${merged}` : '') +
              (adopt
                ? ' The service gives a new module a default layout of its own: if it has this name it is taken, and its sections of these names too.'
                : ''),
            steps,
          },
        ),
      );
      continue;
    }
    layoutIds.push(match.id);
    const steps: CopyStep[] = [];
    const changes: PlanItem['changes'] = [];
    const layoutChanges: { type?: 'public' | 'private'; makeDefault?: true } = {};
    if (match.type !== layout.type) {
      layoutChanges.type = layout.type;
      changes.push({ setting: 'Type', from: match.type, to: layout.type });
    }
    if (layout.isDefault && !match.isDefault) {
      layoutChanges.makeDefault = true;
      changes.push({ setting: 'Default', from: 'no', to: 'yes' });
    }
    if (Object.keys(layoutChanges).length > 0) {
      steps.push({
        do: 'updateLayout',
        module: moduleRef,
        layout: match.id,
        changes: layoutChanges,
      });
    }
    const added: string[] = [];
    const sectionRefs = new Map<string, Ref>();
    /** The target's sections taken for the source's whose names differ only in case. */
    const caseTaken: { theirs: string; mine: string }[] = [];
    const sections = layout.sections.map((section, s) => {
      const existing = match.sections.find((candidate) => same(candidate.name, section.name));
      if (existing) {
        if (existing.name.trim() !== section.name.trim()) {
          caseTaken.push({ theirs: existing.name, mine: section.name });
        }
        return existing.id;
      }
      const known = sectionRefs.get(caseless(section.name));
      if (known !== undefined) return known;
      const problem = sectionNameProblem(section.name, match.sections);
      if (problem) return '';
      const ref = refs.section(l, s);
      sectionRefs.set(caseless(section.name), ref);
      steps.push({
        do: 'putSection',
        ref,
        module: moduleRef,
        layout: match.id,
        name: section.name.trim(),
        adopt: false,
      });
      added.push(section.name.trim());
      return ref;
    });
    sectionIds.push(sections);
    if (added.length > 0)
      changes.push({ setting: 'Sections', from: '', to: `add ${added.join(', ')}` });
    const onlyTarget = match.sections.filter(
      (candidate) => !layout.sections.some((section) => same(section.name, candidate.name)),
    );
    const layoutCase = match.name.trim() !== layout.name.trim();
    const detail =
      [
        caseNote(layoutCase ? { theirs: match.name, mine: layout.name } : null, caseTaken),
        sourceCaseTwins(layout.sections),
        onlyTarget.length > 0
          ? `Kept, only in the target: ${onlyTarget.map((s) => s.name).join(', ')}.`
          : null,
      ]
        .filter((line) => line !== null)
        .join(' ') || null;
    const named = `${quote(layout.name)}${layoutCase ? ` (${quote(match.name)} in the target)` : ''}`;
    items.push(
      steps.length > 0
        ? item(key, moduleName, 'layout', 'change', `Change layout ${named}`, {
            changes,
            detail,
            steps,
          })
        : item(key, moduleName, 'layout', 'alone', `Layout ${named}: the same`, { detail }),
    );
  }
  return { items, layoutIds, sectionIds };
}

/**
 * Where a field must still be placed in the target: every layout of the source placing it (in
 * the section of the same name) that will not have it, the one its create places it on aside. A
 * field already on a target layout stays where it is there (a copy adds; it does not rearrange).
 */
function planPlacements(
  key: string,
  moduleName: string,
  source: DocumentModule,
  field: DocumentField,
  fieldRef: Ref,
  targetLayouts: readonly PortalLayout[],
  placed: { layoutIds: Ref[]; sectionIds: Ref[][] },
  createdOn: number | null,
  moduleRef: Ref,
): PlannedItem | null {
  if (field.apiName === null) return null;
  const steps: CopyStep[] = [];
  const where: string[] = [];
  const missing: string[] = [];
  for (const [l, layout] of source.layouts.entries()) {
    if (l === createdOn) continue;
    const s = layout.sections.findIndex((section) => section.fields.includes(field.apiName!));
    if (s === -1) continue;
    const layoutRef = placed.layoutIds[l];
    const sectionRef = placed.sectionIds[l]?.[s];
    const name = `${layout.name} › ${layout.sections[s]!.name}`;
    if (!layoutRef || !sectionRef) {
      missing.push(name);
      continue;
    }
    const existing = targetLayouts.find((candidate) => candidate.id === layoutRef);
    const already = existing?.sections.some((section) =>
      section.fields.some((key) => key === field.apiName || key === fieldRef),
    );
    if (already) continue;
    steps.push({
      do: 'placeField',
      module: moduleRef,
      layout: layoutRef,
      section: sectionRef,
      field: fieldRef,
      label: field.label,
    });
    where.push(name);
  }
  const detail =
    missing.length > 0
      ? `Not placed on ${missing.join(', ')}: that layout or section cannot be copied.`
      : null;
  if (steps.length === 0) {
    return detail
      ? item(`placement:${key}`, moduleName, 'field', 'blocked', `Place ${quote(field.label)}`, {
          detail,
        })
      : null;
  }
  return item(
    `placement:${key}`,
    moduleName,
    'field',
    'change',
    `Place ${quote(field.label)} on ${where.join(', ')}`,
    {
      changes: [{ setting: 'Layouts', from: '', to: `add ${where.join(', ')}` }],
      detail,
      steps,
    },
  );
}

function planFields(
  source: DocumentModule,
  target: PortalModule | undefined,
  moduleRef: Ref,
  refs: Refs,
  placed: { layoutIds: Ref[]; sectionIds: Ref[][] },
): PlannedItem[] {
  const items: PlannedItem[] = [];
  const moduleName = source.pluralName;
  const targetFields: readonly PortalField[] = target?.fields ?? [];
  // The target's fields as they will be, for the name rules: those it has and those created here.
  const known: { id: string; label: string }[] = targetFields.map((f) => ({
    id: f.id,
    label: f.label,
  }));
  for (const [f, field] of source.fields.entries()) {
    const key = `field:${source.apiName ?? source.pluralName}/${field.apiName ?? field.label}`;
    const { type, options } = field;
    const settings = fieldSettingsOf(field);
    const match = matchField(field, targetFields);
    if (match && match.type !== type) {
      items.push(
        item(key, moduleName, 'field', 'blocked', `Field ${quote(field.label)}`, {
          detail: `It is a ${match.type} field in the target and a ${type} field here; a field's type never changes. Rename or delete one of them, then plan again.`,
        }),
      );
      continue;
    }
    let fieldRef: Ref;
    if (!match) {
      const problem = firstFieldProblem(fieldSettingsProblems(type, settings, known, null, true));
      const place = firstPlace(source, field);
      const layoutIndex =
        place?.layoutIndex ??
        Math.max(
          0,
          source.layouts.findIndex((l) => l.isDefault),
        );
      const layout = placed.layoutIds[layoutIndex];
      if (problem || !layout) {
        items.push(
          item(key, moduleName, 'field', 'blocked', `Field ${quote(field.label)}`, {
            detail: problem ?? `No layout of ${moduleName} can take it in the target.`,
          }),
        );
        continue;
      }
      fieldRef = refs.field(f);
      known.push({ id: fieldRef, label: field.label });
      const section = place
        ? placed.sectionIds[place.layoutIndex]?.[place.sectionIndex] || null
        : null;
      const where = source.layouts[layoutIndex];
      const sectionName = place ? where?.sections[place.sectionIndex]?.name : undefined;
      const steps: CopyStep[] = [
        {
          do: 'createField',
          ref: fieldRef,
          module: moduleRef,
          type,
          settings: { ...settings, label: settings.label.trim() },
          layout,
          section,
        },
      ];
      const addedOptions = options ?? [];
      if (addedOptions.length > 0) {
        steps.push({
          do: 'addOptions',
          module: moduleRef,
          field: fieldRef,
          names: addedOptions.map((o) => o.trim()),
        });
      }
      items.push(
        item(
          key,
          moduleName,
          'field',
          'create',
          `Create field ${quote(field.label)} (${type.replace(/_/g, ' ')}) in ${where?.name ?? 'the default layout'}${sectionName ? ` › ${sectionName}` : ''}`,
          {
            detail:
              [addedOptions.length > 0 ? `Options: ${addedOptions.join(', ')}.` : null]
                .filter(Boolean)
                .join(' ') || null,
            steps,
          },
        ),
      );
      const placement = planPlacements(
        key,
        moduleName,
        source,
        field,
        fieldRef,
        target?.layouts ?? [],
        placed,
        place ? layoutIndex : null,
        moduleRef,
      );
      if (placement) items.push(placement);
      continue;
    }
    fieldRef = match.id;
    const { changed, lines } = changesOf<FieldSettings, keyof FieldSettings>(
      FIELD_SETTING_KEYS,
      FIELD_SETTING_LABEL,
      match,
      settings,
    );
    const problem =
      lines.length > 0
        ? firstFieldProblem(fieldSettingsProblems(type, changed, known, match.id, false))
        : null;
    if (problem) {
      items.push(
        item(key, moduleName, 'field', 'blocked', `Field ${quote(field.label)}`, {
          detail: problem,
        }),
      );
      continue;
    }
    if (typeof changed.label === 'string') {
      const entry = known.find((k) => k.id === match.id);
      if (entry) entry.label = changed.label;
    }
    const steps: CopyStep[] =
      lines.length > 0
        ? [{ do: 'updateField', module: moduleRef, field: fieldRef, changes: changed }]
        : [];
    const optionItem = planOptions(key, moduleName, field, match, moduleRef);
    items.push(
      lines.length > 0
        ? item(key, moduleName, 'field', 'change', `Change field ${quote(match.label)}`, {
            changes: lines,
            steps,
          })
        : item(key, moduleName, 'field', 'alone', `Field ${quote(field.label)}: the same`),
    );
    if (optionItem) items.push(optionItem);
    const placement = planPlacements(
      key,
      moduleName,
      source,
      field,
      match.apiName ?? match.id,
      target?.layouts ?? [],
      placed,
      null,
      moduleRef,
    );
    if (placement) items.push(placement);
  }
  const onlyTarget = targetFields.filter((t) => !source.fields.some((s) => matchField(s, [t])));
  if (target && onlyTarget.length > 0) {
    items.push(
      item(
        `fields:${source.apiName ?? source.pluralName}/target-only`,
        moduleName,
        'field',
        'alone',
        `${onlyTarget.length} field${onlyTarget.length === 1 ? '' : 's'} only in the target, kept`,
        {
          detail: onlyTarget.map((field) => field.label).join(', '),
        },
      ),
    );
  }
  return items;
}

/** Options of an existing pick list or multi-select: names it lacks are added, none removed. */
function planOptions(
  fieldKey: string,
  moduleName: string,
  source: DocumentField,
  target: PortalField,
  moduleRef: Ref,
): PlannedItem | null {
  if (source.options === null || target.options === null) return null;
  const key = `options:${fieldKey.slice('field:'.length)}`;
  const missing = source.options.filter((name) => !target.options!.some((o) => same(o.name, name)));
  const kept = target.options.filter((o) => !source.options!.some((name) => same(o.name, name)));
  const keptNote =
    kept.length > 0 ? `Kept, only in the target: ${kept.map((o) => o.name).join(', ')}.` : null;
  if (missing.length === 0) {
    return kept.length > 0
      ? item(
          key,
          moduleName,
          'options',
          'alone',
          `Options of ${quote(target.label)}: nothing to add`,
          { detail: keptNote },
        )
      : null;
  }
  const max = maxOptionsOf(target.type);
  const after = target.options.length + missing.length;
  const others = [...target.options];
  for (const name of missing) {
    const problem = optionNameProblem(name, others);
    if (problem)
      return item(key, moduleName, 'options', 'blocked', `Options of ${quote(target.label)}`, {
        detail: problem,
      });
    others.push({ id: `new:${name}`, name });
  }
  if (after > max) {
    return item(key, moduleName, 'options', 'blocked', `Options of ${quote(target.label)}`, {
      detail: `Adding ${missing.join(', ')} would make ${after} options; the field holds at most ${max}.`,
    });
  }
  return item(
    key,
    moduleName,
    'options',
    'create',
    `Add ${missing.length === 1 ? 'option' : 'options'} ${missing.map(quote).join(', ')} to ${quote(target.label)}`,
    {
      detail: keptNote,
      steps: [
        {
          do: 'addOptions',
          module: moduleRef,
          field: target.id,
          names: missing.map((n) => n.trim()),
        },
      ],
    },
  );
}

/**
 * The module's statuses: those the target lacks are added (by name), then colours, closed types
 * and transitions made as the source has them; statuses only the target has are kept, and the
 * order is the target's. A module created by this plan gets the service's own statuses first,
 * which cannot be read here: its statuses are planned once it exists.
 */
function planStatuses(
  source: DocumentModule,
  target: PortalModule | undefined,
  moduleRef: Ref,
  refs: Refs,
): PlannedItem | null {
  if (source.statuses === null) return null;
  const key = `statuses:${source.apiName ?? source.pluralName}`;
  const moduleName = source.pluralName;
  if (!target || target.statuses === null) {
    return item(key, moduleName, 'statuses', 'blocked', `Statuses of ${quote(moduleName)}`, {
      detail: `The service gives a new module statuses of its own, read once it exists: after the Outbox has sent ${quote(moduleName)} and the portal was read again, plan again to copy its statuses.`,
    });
  }
  const existing = target.statuses;
  const idOf = new Map<string, Ref>();
  for (const status of existing) idOf.set(status.name.trim().toLowerCase(), status.id);
  const adds: { ref: Ref; name: string; color: string; closed: boolean }[] = [];
  const all = existing.map((status) => ({ id: status.id, name: status.name }));
  for (const [index, status] of source.statuses.entries()) {
    if (idOf.has(status.name.trim().toLowerCase())) continue;
    const problem = statusNameProblem(status.name, all) ?? statusColorProblem(status.color);
    if (problem) {
      return item(key, moduleName, 'statuses', 'blocked', `Statuses of ${quote(moduleName)}`, {
        detail: problem,
      });
    }
    const ref = refs.status(index);
    idOf.set(status.name.trim().toLowerCase(), ref);
    all.push({ id: ref, name: status.name });
    adds.push({ ref, name: status.name.trim(), color: status.color, closed: status.closed });
  }
  const names = new Map(all.map((status) => [status.id, status.name]));
  const changes: Extract<CopyStep, { do: 'updateStatuses' }>['changes'] = [];
  const lines: PlanItem['changes'] = [];
  for (const status of source.statuses) {
    const ref = idOf.get(status.name.trim().toLowerCase())!;
    const have = existing.find((candidate) => candidate.id === ref);
    const wanted = status.transitions.flatMap((name) => idOf.get(name.trim().toLowerCase()) ?? []);
    const change: (typeof changes)[number] = { status: ref };
    if (have && have.color.toLowerCase() !== status.color.toLowerCase()) {
      change.color = status.color;
      lines.push({ setting: `${status.name}: colour`, from: have.color, to: status.color });
    }
    if (have && have.closed !== status.closed) {
      change.closed = status.closed;
      lines.push({
        setting: `${status.name}: type`,
        from: have.closed ? 'closed' : 'open',
        to: status.closed ? 'closed' : 'open',
      });
    }
    const current = have?.transitions ?? [];
    const sameTransitions =
      current.length === wanted.length && wanted.every((id) => current.includes(id));
    if (!sameTransitions) {
      change.transitions = wanted;
      const shownNames = (ids: readonly string[]) =>
        ids.map((id) => names.get(id) ?? id).join(', ') || '(none)';
      lines.push({
        setting: `${status.name}: leads to`,
        from: have ? shownNames(current) : '',
        to: shownNames(wanted),
      });
    }
    if (Object.keys(change).length > 1) changes.push(change);
  }
  const steps: CopyStep[] = [];
  if (adds.length > 0) steps.push({ do: 'addStatuses', module: moduleRef, statuses: adds });
  if (changes.length > 0) steps.push({ do: 'updateStatuses', module: moduleRef, changes });
  const kept = existing.filter(
    (status) => !source.statuses!.some((wanted) => same(wanted.name, status.name)),
  );
  const keptNote =
    kept.length > 0 ? `Kept, only in the target: ${kept.map((s) => s.name).join(', ')}.` : null;
  if (steps.length === 0) {
    return item(
      key,
      moduleName,
      'statuses',
      'alone',
      `Statuses of ${quote(moduleName)}: the same`,
      {
        detail: keptNote,
      },
    );
  }
  const summary =
    adds.length > 0
      ? `Add ${adds.length === 1 ? 'status' : 'statuses'} ${adds.map((a) => quote(a.name)).join(', ')} to ${quote(moduleName)}`
      : `Change statuses of ${quote(moduleName)}`;
  return item(key, moduleName, 'statuses', adds.length > 0 ? 'create' : 'change', summary, {
    changes: lines.filter((line) => line.from !== '' || line.to !== '(none)'),
    detail: keptNote,
    steps,
  });
}

function planModule(
  source: DocumentModule,
  index: number,
  targets: readonly PortalModule[],
  createdNames: { id: string; singularName: string; pluralName: string }[],
): ModulePlan {
  const key = `module:${source.apiName ?? source.pluralName}`;
  const name = source.pluralName;
  const match = matchModule(source, targets);
  const blocked = (detail: string): ModulePlan => ({
    items: [item(key, name, 'module', 'blocked', `Module ${quote(name)}`, { detail })],
  });
  if (match?.builtIn) {
    return blocked(
      `${match.pluralName} is one of the product's own modules in the target; only custom modules are copied.`,
    );
  }
  if (match?.state === 'trashed') {
    return blocked(
      `${match.pluralName} is in the target's module bin: recover it there first, then plan again.`,
    );
  }
  const refs = new Refs(`m${index}`);
  const items: PlannedItem[] = [];
  let moduleRef: Ref;
  const others = [
    ...targets.filter((module) => module.state !== 'trashed' && module.id !== match?.id),
    ...createdNames,
  ];
  if (!match) {
    const settings: Omit<CreateModuleArgs, 'portalId'> = {
      singularName: source.singularName.trim(),
      pluralName: source.pluralName.trim(),
      iconClass: source.iconClass,
      isGlobal: source.isGlobal,
      isAllProjects: true,
      isOverviewNeeded: source.isOverviewNeeded,
      defaultLayoutType: source.defaultLayoutType,
      projects: [],
    };
    const clash = nameClash(source.pluralName, others) ?? nameClash(source.singularName, others);
    const problem = clash
      ? `The target already has a module named ${clash.pluralName} under another API name; rename one of them, then plan again.`
      : firstProblem(moduleSettingsProblems(settings, { others, builtIn: false }, true));
    if (problem) return blocked(problem);
    moduleRef = refs.module();
    createdNames.push({
      id: moduleRef,
      singularName: settings.singularName,
      pluralName: settings.pluralName,
    });
    items.push(
      item(
        key,
        name,
        'module',
        'create',
        `Create module ${quote(name)} (${source.isGlobal ? 'global' : 'per project'})`,
        {
          detail: source.isAllProjects
            ? null
            : 'It is on chosen projects in the source; projects differ between portals, so here it is on all projects: choose them after it is created.',
          steps: [{ do: 'createModule', ref: moduleRef, settings }],
        },
      ),
    );
  } else {
    moduleRef = match.id;
    const { changed, lines } = changesOf<ModuleCopied, keyof ModuleCopied>(
      MODULE_SETTINGS,
      MODULE_SETTING_LABEL,
      match,
      source,
    );
    const problem =
      lines.length > 0
        ? firstProblem(moduleSettingsProblems(changed, { others, builtIn: false }, false))
        : null;
    if (problem) return blocked(problem);
    const fixed =
      match.isGlobal !== source.isGlobal
        ? `It stays ${match.isGlobal ? 'global' : 'per project'} in the target: that is fixed when a module is created.`
        : null;
    items.push(
      lines.length > 0
        ? item(key, name, 'module', 'change', `Change module ${quote(match.pluralName)}`, {
            changes: lines,
            detail: fixed,
            steps: [{ do: 'updateModule', module: moduleRef, changes: changed }],
          })
        : item(key, name, 'module', 'alone', `Module ${quote(name)}: settings the same`, {
            detail: fixed,
          }),
    );
  }
  const layouts = planLayouts(source, match, moduleRef, refs);
  items.push(...layouts.items);
  items.push(...planFields(source, match, moduleRef, refs, layouts));
  const statuses = planStatuses(source, match, moduleRef, refs);
  if (statuses) items.push(statuses);
  return { items };
}

/** The whole plan: every source module in order, each whole (its items after its module's). */
export function planCopy(
  source: readonly DocumentModule[],
  target: readonly PortalModule[],
): PlannedItem[] {
  const createdNames: { id: string; singularName: string; pluralName: string }[] = [];
  return source.flatMap((module, index) => planModule(module, index, target, createdNames).items);
}

/** Calls by endpoint over the whole plan, busiest first. */
export function callsByEndpoint(
  items: readonly PlannedItem[],
): { endpoint: string; calls: number }[] {
  const counts = new Map<string, number>();
  for (const planned of items) {
    for (const step of planned.steps) {
      for (const endpoint of stepCalls(step)) counts.set(endpoint, (counts.get(endpoint) ?? 0) + 1);
    }
  }
  return [...counts]
    .map(([endpoint, calls]) => ({ endpoint, calls }))
    .sort((a, b) => b.calls - a.calls || a.endpoint.localeCompare(b.endpoint));
}

/**
 * The least time the calls take at `limit` calls per endpoint per window: the busiest endpoint's
 * calls past its first window's wait for the next ones (a window's calls go at once).
 */
export function minimumMinutes(
  calls: readonly { calls: number }[],
  limit: { calls: number; windowMs: number },
): number {
  const busiest = Math.max(0, ...calls.map((entry) => entry.calls));
  if (busiest === 0) return 0;
  return ((Math.ceil(busiest / limit.calls) - 1) * limit.windowMs) / 60_000;
}
