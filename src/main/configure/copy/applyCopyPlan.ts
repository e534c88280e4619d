/**
 * A reviewed plan queued in the outbox: each step through the Configure service's own request (so
 * each is checked by the same rules and queued as the same operation a person's click makes),
 * in order, in one transaction: a step refused rolls back every one before it, and the refusal
 * names the item. What a step creates gets a temporary id; later steps name it by that id, and
 * the replay rewrites them when the creation answers, as for changes made by hand.
 */
import { ConfigRefused, type ConfigureService } from '../configureService';
import type { OutboxRepository } from '../../outbox/outboxRepository';
import { sameName } from '../settingsReplay';
import { isPlanRef, type CopyStep, type PlannedItem, type Ref } from './copyPlan';

function created(what: string, id: string | undefined): string {
  if (id === undefined)
    throw new Error(`The copy's ${what} was queued but is not shown; nothing was queued.`);
  return id;
}

/** Queues one step; returns the id of what it creates (a temporary one), if it creates. */
function queueStep(
  configure: ConfigureService,
  portalId: string,
  step: CopyStep,
  id: (ref: Ref) => string,
  /** Where a step that makes several things (statuses) records each one's id. */
  madeRefs: Map<Ref, string>,
): string | undefined {
  switch (step.do) {
    case 'createModule':
      return configure.createModule({ portalId, ...step.settings }).id;
    case 'updateModule':
      configure.updateModule({ portalId, moduleId: id(step.module), changes: step.changes });
      return undefined;
    case 'createLayout': {
      const view = configure.createLayout({
        portalId,
        moduleId: id(step.module),
        name: step.name,
        type: step.type,
        referenceId: null,
        adoptExisting: step.adopt,
      });
      const layout = view.layouts.find((l) => l.localOnly && sameName(l.name, step.name));
      return created(`layout “${step.name}”`, layout?.id);
    }
    case 'updateLayout':
      configure.updateLayout({
        portalId,
        moduleId: id(step.module),
        layoutId: id(step.layout),
        changes: step.changes,
      });
      return undefined;
    case 'putSection': {
      const layoutId = id(step.layout);
      const view = configure.putSection({
        portalId,
        moduleId: id(step.module),
        layoutId,
        name: step.name,
        adoptExisting: step.adopt,
      });
      const section = view.layouts
        .find((l) => l.id === layoutId)
        ?.sections.find((s) => s.localOnly && sameName(s.name, step.name));
      return created(`section “${step.name}”`, section?.id);
    }
    case 'createField': {
      const view = configure.createField({
        portalId,
        moduleId: id(step.module),
        type: step.type,
        settings: step.settings,
        layoutId: id(step.layout),
        sectionId: step.section === null ? null : id(step.section),
      });
      const field = view.fields.find((f) => f.localOnly && sameName(f.label, step.settings.label));
      return created(`field “${step.settings.label}”`, field?.id);
    }
    case 'updateField':
      configure.updateField({
        portalId,
        moduleId: id(step.module),
        fieldId: id(step.field),
        changes: step.changes,
      });
      return undefined;
    case 'placeField': {
      const moduleId = id(step.module);
      const layoutId = id(step.layout);
      const sectionId = id(step.section);
      // At the end of its section, as the section is when this step is queued.
      const section = configure
        .layouts(portalId, moduleId)
        .layouts.find((l) => l.id === layoutId)
        ?.sections.find((s) => s.id === sectionId);
      configure.placeField({
        portalId,
        moduleId,
        layoutId,
        fieldKey: id(step.field),
        mode: 'place',
        sectionId,
        position: (section?.fields.length ?? 0) + 1,
      });
      return undefined;
    }
    case 'addStatuses': {
      const view = configure.choices.changeStatuses({
        portalId,
        moduleId: id(step.module),
        add: step.statuses.map(({ name, color, closed }) => ({
          name,
          color,
          closed,
          transitions: [],
        })),
      });
      for (const wanted of step.statuses) {
        const made = view.statuses.find((s) => s.localOnly && sameName(s.name, wanted.name));
        madeRefs.set(wanted.ref, created(`status “${wanted.name}”`, made?.id));
      }
      return undefined;
    }
    case 'updateStatuses':
      configure.choices.changeStatuses({
        portalId,
        moduleId: id(step.module),
        update: step.changes.map(({ status, transitions, ...rest }) => ({
          id: id(status),
          ...rest,
          ...(transitions ? { transitions: transitions.map(id) } : {}),
        })),
      });
      return undefined;
    case 'addOptions':
      configure.changeOptions({
        portalId,
        moduleId: id(step.module),
        fieldId: id(step.field),
        add: step.names,
      });
      return undefined;
  }
}

/**
 * Queues every item's steps, all or none; returns how many operations the outbox gained (a step
 * the queue folds into an earlier one, or finds already so, adds none).
 */
export function applyCopyPlan(
  configure: ConfigureService,
  repo: Pick<OutboxRepository, 'transaction' | 'configOps'>,
  portalId: string,
  items: readonly PlannedItem[],
): number {
  const ids = new Map<Ref, string>();
  const id = (ref: Ref) => {
    if (!isPlanRef(ref)) return ref;
    const known = ids.get(ref);
    if (known === undefined) throw new Error(`The copy names ${ref} before it is created.`);
    return known;
  };
  const before = repo.configOps(portalId).length;
  let queued = 0;
  repo.transaction(() => {
    for (const planned of items) {
      for (const step of planned.steps) {
        try {
          const createdId = queueStep(configure, portalId, step, id, ids);
          if (createdId !== undefined && 'ref' in step) ids.set(step.ref, createdId);
        } catch (error) {
          if (error instanceof ConfigRefused) {
            throw new ConfigRefused(
              `${planned.summary}: ${error.message.replace(/ Nothing was queued\.$/, '')} Nothing of the plan was queued.`,
            );
          }
          throw error;
        }
      }
    }
    queued = repo.configOps(portalId).length - before;
  });
  return queued;
}
