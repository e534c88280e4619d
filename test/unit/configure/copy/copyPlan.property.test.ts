/**
 * The copy plan judged two ways. A generated configuration is planned against a target that holds
 * part of it (modules, layouts, sections, fields and options dropped at random, settings changed),
 * then the plan's steps are carried out on a model of the service (which, like the emulator, gives
 * a new module a default layout with sections of its own, and keeps names unique but for case:
 * the target's names differ from the source's only in case at times). Afterwards the target must hold
 * everything the source has, keep what only it had, and a plan made again must have nothing left
 * to do. Steps may only name what an earlier step made.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldSettings } from '../../../../src/shared/ipc/areas/configure';
import type { DocumentModule } from '../../../../src/main/configure/copy/configurationDocument';
import {
  isPlanRef,
  planCopy,
  stepCalls,
  type CopyStep,
} from '../../../../src/main/configure/copy/copyPlan';
import type { PortalModule } from '../../../../src/main/configure/copy/portalConfiguration';
import { documentModule } from '../../../../src/main/configure/copy/exportConfiguration';

const SERVICE_LAYOUT = 'Standard';
const caseless = (name: string) => name.toLowerCase();
const SERVICE_SECTIONS = ['Overview', 'Details', 'Tracking'];

const names = (min: number, max: number, pool: readonly string[]) =>
  fc.uniqueArray(fc.constantFrom(...pool), {
    minLength: min,
    maxLength: max,
    selector: (name) => name.toLowerCase(),
  });

const settings = (label: string): fc.Arbitrary<FieldSettings> =>
  fc.record({
    label: fc.constant(label),
    mandatory: fc.boolean(),
    pii: fc.boolean(),
    encrypted: fc.constant(false),
    description: fc.option(fc.constantFrom('Why', 'What it holds'), { nil: null }),
    defaultValue: fc.constant(null),
    hasInfo: fc.boolean(),
    currencyListType: fc.constant(null),
    currencyCode: fc.constant(null),
    precision: fc.constant(null),
    userListType: fc.constant(null),
  });

const STATUS_POOL = ['Open', 'In review', 'Done', 'Parked'];
/** What the service gives a module it creates (the emulator's defaults, in short). */
const SERVICE_STATUSES = [
  { name: 'Open', color: '#2a64d6', closed: false },
  { name: 'Closed', color: '#1f8a4c', closed: true },
];

const moduleArb = (plural: string): fc.Arbitrary<DocumentModule> =>
  fc
    .tuple(
      names(1, 3, ['Standard', 'Compact', 'Legal', 'Intake']),
      names(0, 4, ['Cost', 'Kind', 'Notes', 'Due', 'Owner note', 'Size']),
      fc.boolean(),
      fc.constantFrom<'public' | 'private'>('public', 'private'),
      names(1, 4, STATUS_POOL),
    )
    .chain(([layoutNames, fieldLabels, overview, layoutType, statusNames]) =>
      fc.record({
        statuses: fc.tuple(
          ...statusNames.map((name) =>
            fc.record({
              name: fc.constant(name),
              color: fc.constantFrom('#2a64d6', '#1f8a4c', '#c53030'),
              closed: fc.boolean(),
              transitions: fc.subarray(statusNames.filter((other) => other !== name)),
            }),
          ),
        ),
        apiName: fc.constant(plural.toLowerCase()),
        singularName: fc.constant(plural.slice(0, -1)),
        pluralName: fc.constant(plural),
        iconClass: fc.constant(null),
        isGlobal: fc.constant(false),
        isAllProjects: fc.constant(true),
        isOverviewNeeded: fc.constant(overview),
        defaultLayoutType: fc.constant(layoutType),
        fields: fc.tuple(
          ...fieldLabels.map((label) =>
            fc.tuple(settings(label), fc.constantFrom('pick_list', 'date', 'single_line')).chain(
              ([fieldSettings, type]) =>
                fc.record({
                  ...Object.fromEntries(
                    Object.entries(fieldSettings).map(([key, value]) => [key, fc.constant(value)]),
                  ),
                  apiName: fc.constant(`cf_${label.toLowerCase().replace(/ /g, '_')}`),
                  type: fc.constant(type),
                  options:
                    type === 'pick_list'
                      ? names(0, 4, ['Red', 'Green', 'Blue', 'Amber', 'Teal'])
                      : fc.constant(null),
                }) as fc.Arbitrary<DocumentModule['fields'][number]>,
            ),
          ),
        ),
        layouts: fc.tuple(
          ...layoutNames.map((name, index) =>
            fc.record({
              name: fc.constant(name),
              type: fc.constantFrom<'public' | 'private'>('public', 'private'),
              isDefault: fc.constant(index === 0),
              sections: names(0, 3, ['Overview', 'Details', 'Terms', 'Money']).map((sections) =>
                sections.map((section) => ({ name: section, fields: [] as string[] })),
              ),
            }),
          ),
        ),
      }),
    )
    .map((generated) => {
      // Each field placed in one section of the first layout that has sections, if any (on a
      // copy: fast-check may hand the same value again while shrinking).
      const module = structuredClone(generated);
      const first = module.layouts.find((layout) => layout.sections.length > 0);
      module.fields.forEach((field, index) => {
        if (first) first.sections[index % first.sections.length]!.fields.push(field.apiName!);
      });
      return module;
    });

/** What the target holds: part of the source, with some settings changed, plus its own things. */
const targetArb = (source: DocumentModule[]) =>
  fc
    .tuple(
      ...source.map(() =>
        fc.tuple(fc.boolean(), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 })),
      ),
    )
    .map((choices) => {
      let next = 1;
      const id = () => String(next++);
      return source.flatMap((module, index): PortalModule[] => {
        const [kept, coins] = choices[index]!;
        if (!kept) return [];
        let coin = 0;
        const flip = () => coins[coin++ % coins.length]!;
        const layouts = module.layouts
          .filter((layout) => layout.isDefault || flip())
          .map((layout) => ({
            id: id(),
            // Named there but for case at times: the service counts it the same name.
            name: flip() ? layout.name : layout.name.toUpperCase(),
            type: flip()
              ? layout.type
              : layout.type === 'public'
                ? ('private' as const)
                : ('public' as const),
            isDefault: layout.isDefault,
            sections: [
              ...layout.sections
                .filter(() => flip())
                .map((section) => ({
                  id: id(),
                  name: flip() ? section.name : section.name.toUpperCase(),
                  fields: section.fields.filter(() => flip()),
                })),
              { id: id(), name: 'Target only', fields: [] },
            ],
          }));
        const fields = module.fields
          .filter(() => flip())
          .map((field) => ({
            ...field,
            id: id(),
            mandatory: flip() ? field.mandatory : !field.mandatory,
            description: flip() ? field.description : 'Changed on the target',
            options:
              field.options === null
                ? null
                : [
                    ...field.options.filter(() => flip()).map((name) => ({ id: id(), name })),
                    { id: id(), name: 'Target only' },
                  ],
          }));
        const keptStatuses = (module.statuses ?? []).filter(() => flip());
        const statusIds = new Map(keptStatuses.map((status) => [status.name, id()]));
        const targetOnly = id();
        const statuses = [
          ...keptStatuses.map((status) => ({
            id: statusIds.get(status.name)!,
            name: status.name,
            color: flip() ? status.color : '#718096',
            closed: flip() ? status.closed : !status.closed,
            transitions: status.transitions
              .filter(() => flip())
              .flatMap((name) => statusIds.get(name) ?? []),
          })),
          { id: targetOnly, name: 'Target only', color: '#718096', closed: false, transitions: [] },
        ];
        return [
          {
            ...module,
            id: id(),
            builtIn: false,
            state: 'active' as const,
            isOverviewNeeded: flip() ? module.isOverviewNeeded : !module.isOverviewNeeded,
            layouts,
            fields,
            statuses,
          },
        ];
      });
    });

/** Ids the model's service gives, unique across every round of every run. */
let next = 10_000_000;

/** The service as a model: carries out each step as the emulator would. */
function carryOut(target: PortalModule[], steps: readonly CopyStep[]): PortalModule[] {
  const model = structuredClone(target);
  const made = new Map<string, string>();
  const id = (ref: string) => {
    if (!isPlanRef(ref)) return ref;
    const known = made.get(ref);
    if (known === undefined) throw new Error(`${ref} is named before a step made it`);
    return known;
  };
  const moduleOf = (ref: string) => model.find((m) => m.id === id(ref))!;
  const layoutOf = (module: PortalModule, ref: string) =>
    module.layouts.find((l) => l.id === id(ref))!;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  for (const step of steps) {
    switch (step.do) {
      case 'createModule': {
        const moduleId = String(next++);
        made.set(step.ref, moduleId);
        model.push({
          ...step.settings,
          id: moduleId,
          apiName: step.settings.pluralName.toLowerCase(),
          builtIn: false,
          state: 'active',
          statuses: SERVICE_STATUSES.map((status) => ({
            ...status,
            id: String(next++),
            transitions: [],
          })),
          fields: [],
          layouts: [
            {
              id: String(next++),
              name: SERVICE_LAYOUT,
              type: step.settings.defaultLayoutType,
              isDefault: true,
              sections: SERVICE_SECTIONS.map((name) => ({ id: String(next++), name, fields: [] })),
            },
          ],
        });
        break;
      }
      case 'updateModule':
        Object.assign(moduleOf(step.module), step.changes);
        break;
      case 'createLayout': {
        const module = moduleOf(step.module);
        const existing = step.adopt
          ? module.layouts.find((l) => same(l.name, step.name))
          : undefined;
        if (existing) {
          // Taken as the copied layout, it gets its type (sendLayoutOp.ts).
          existing.type = step.type;
          made.set(step.ref, existing.id);
          break;
        }
        expect(module.layouts.some((l) => same(l.name, step.name))).toBe(false);
        const layoutId = String(next++);
        made.set(step.ref, layoutId);
        // A new layout gets the service's sections too.
        module.layouts.push({
          id: layoutId,
          name: step.name,
          type: step.type,
          isDefault: false,
          sections: SERVICE_SECTIONS.map((name) => ({ id: String(next++), name, fields: [] })),
        });
        break;
      }
      case 'updateLayout': {
        const module = moduleOf(step.module);
        const layout = layoutOf(module, step.layout);
        if (step.changes.type) layout.type = step.changes.type;
        if (step.changes.makeDefault) {
          for (const other of module.layouts) other.isDefault = other === layout;
        }
        break;
      }
      case 'putSection': {
        const layout = layoutOf(moduleOf(step.module), step.layout);
        const existing = step.adopt
          ? layout.sections.find((s) => same(s.name, step.name))
          : undefined;
        if (existing) {
          made.set(step.ref, existing.id);
          break;
        }
        expect(layout.sections.some((s) => same(s.name, step.name))).toBe(false);
        const sectionId = String(next++);
        made.set(step.ref, sectionId);
        layout.sections.push({ id: sectionId, name: step.name, fields: [] });
        break;
      }
      case 'createField': {
        const module = moduleOf(step.module);
        expect(module.fields.some((f) => same(f.label, step.settings.label))).toBe(false);
        const fieldId = String(next++);
        made.set(step.ref, fieldId);
        const apiName = `cf_${step.settings.label.toLowerCase().replace(/ /g, '_')}`;
        module.fields.push({
          ...step.settings,
          id: fieldId,
          apiName,
          type: step.type,
          options: step.type === 'pick_list' ? [] : null,
        });
        const layout = layoutOf(module, step.layout);
        const section =
          step.section === null
            ? layout.sections[0]!
            : layout.sections.find((s) => s.id === id(step.section!))!;
        section.fields.push(apiName);
        break;
      }
      case 'updateField':
        Object.assign(
          moduleOf(step.module).fields.find((f) => f.id === id(step.field))!,
          step.changes,
        );
        break;
      case 'placeField': {
        const module = moduleOf(step.module);
        const layout = layoutOf(module, step.layout);
        const key = isPlanRef(step.field)
          ? module.fields.find((f) => f.id === id(step.field))!.apiName!
          : step.field;
        expect(layout.sections.some((s) => s.fields.includes(key))).toBe(false);
        layout.sections.find((s) => s.id === id(step.section))!.fields.push(key);
        break;
      }
      case 'addStatuses': {
        const module = moduleOf(step.module);
        for (const status of step.statuses) {
          expect(module.statuses!.some((s) => same(s.name, status.name))).toBe(false);
          const statusId = String(next++);
          made.set(status.ref, statusId);
          module.statuses!.push({ ...status, id: statusId, transitions: [] });
        }
        break;
      }
      case 'updateStatuses': {
        const module = moduleOf(step.module);
        for (const { status, transitions, ...rest } of step.changes) {
          const have = module.statuses!.find((s) => s.id === id(status))!;
          Object.assign(have, rest);
          if (transitions) {
            // As the emulator: a status never leads to itself; targets are statuses of the module.
            const ids = transitions.map(id);
            expect(ids).not.toContain(have.id);
            for (const target of ids)
              expect(module.statuses!.some((s) => s.id === target)).toBe(true);
            have.transitions = ids;
          }
        }
        break;
      }
      case 'addOptions': {
        const field = moduleOf(step.module).fields.find((f) => f.id === id(step.field))!;
        for (const name of step.names) {
          expect(field.options!.some((o) => same(o.name, name))).toBe(false);
          field.options!.push({ id: String(next++), name });
        }
        break;
      }
    }
  }
  return model;
}

const sourceArb = names(1, 3, ['Assets', 'Vendors', 'Contracts', 'Tickets']).chain((plurals) =>
  fc.tuple(...plurals.map(moduleArb)),
);

describe('the copy plan, carried out on a model of the service', () => {
  it('leaves the target holding the source, and nothing to do after', () => {
    fc.assert(
      fc.property(
        sourceArb.chain((source) => fc.tuple(fc.constant(source), targetArb(source))),
        ([source, target]) => {
          const items = planCopy(source, target);
          // Only the statuses of a module this plan creates wait (for the service's own).
          for (const blocked of items.filter((item) => item.action === 'blocked')) {
            expect(blocked.kind).toBe('statuses');
            expect(target.some((module) => module.pluralName === blocked.module)).toBe(false);
          }
          for (const item of items) {
            expect(item.calls).toBe(item.steps.reduce((n, step) => n + stepCalls(step).length, 0));
            expect(item.steps.length > 0).toBe(
              item.action === 'create' || item.action === 'change',
            );
          }
          const after = carryOut(
            target,
            items.flatMap((item) => item.steps),
          );

          for (const wanted of source) {
            const got = after.find((module) => module.apiName === wanted.apiName)!;
            const shown = documentModule(got);
            expect(shown.isOverviewNeeded).toBe(wanted.isOverviewNeeded);
            for (const field of wanted.fields) {
              const have = shown.fields.find((f) => f.apiName === field.apiName)!;
              // Options the target had alone are kept; the source's are all there.
              const { options, ...rest } = field;
              expect(have).toMatchObject(rest);
              if (options) expect(have.options).toEqual(expect.arrayContaining(options));
            }
            for (const layout of wanted.layouts) {
              // Names as the service compares them, but for case.
              const have = shown.layouts.find((l) => caseless(l.name) === caseless(layout.name))!;
              expect(have.type).toBe(layout.type);
              if (layout.isDefault) expect(have.isDefault).toBe(true);
              for (const section of layout.sections) {
                expect(have.sections.map((s) => caseless(s.name))).toContain(
                  caseless(section.name),
                );
              }
            }
            // Every field of the source is on some layout of the target.
            for (const field of wanted.fields) {
              const placed = shown.layouts.some((l) =>
                l.sections.some((s) => s.fields.includes(field.apiName!)),
              );
              const placedInSource = wanted.layouts.some((l) =>
                l.sections.some((s) => s.fields.includes(field.apiName!)),
              );
              if (placedInSource) expect(placed).toBe(true);
            }
          }
          // What only the target had is still there.
          for (const module of target) {
            const got = after.find((m) => m.id === module.id)!;
            for (const field of module.fields) {
              expect(got.fields.some((f) => f.id === field.id)).toBe(true);
            }
          }
          // A second round copies the statuses of modules the first created; a third has nothing.
          const second = planCopy(source, after);
          expect(second.filter((item) => item.action === 'blocked')).toEqual([]);
          expect(
            second.filter((item) => item.steps.length > 0).every((i) => i.kind === 'statuses'),
          ).toBe(true);
          const final = carryOut(
            after,
            second.flatMap((item) => item.steps),
          );
          for (const wanted of source) {
            const shown = documentModule(
              final.find((module) => module.apiName === wanted.apiName)!,
            );
            for (const status of wanted.statuses ?? []) {
              const have = shown.statuses!.find((s) => s.name === status.name)!;
              expect({ ...have, transitions: [...have.transitions].sort() }).toEqual({
                ...status,
                transitions: [...status.transitions].sort(),
              });
            }
          }
          const again = planCopy(source, final);
          expect(again.filter((item) => item.action !== 'alone')).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
