/**
 * Names the service counts as the same but for case, in the copy plan: two layouts of a source
 * module (a file) named alike but for case cannot both be made (the service refuses the second),
 * so the second is blocked in words, not planned as a create that the apply or the service then
 * refuses; two sections of a source layout named so are one section to the service.
 */
import { describe, expect, it } from 'vitest';
import { planCopy, type CopyStep } from '../../../../src/main/configure/copy/copyPlan';
import type { DocumentModule } from '../../../../src/main/configure/copy/configurationDocument';
import type { PortalModule } from '../../../../src/main/configure/copy/portalConfiguration';

const module: DocumentModule = {
  apiName: 'assets',
  singularName: 'Asset',
  pluralName: 'Assets',
  iconClass: null,
  isGlobal: false,
  isAllProjects: true,
  isOverviewNeeded: false,
  defaultLayoutType: 'public',
  statuses: null,
  fields: [],
  layouts: [
    {
      name: 'Standard',
      type: 'public',
      isDefault: true,
      sections: [{ name: 'Details', fields: [] }],
    },
    {
      name: 'Legal',
      type: 'public',
      isDefault: false,
      sections: [
        { name: 'Gear', fields: [] },
        { name: 'GEAR', fields: [] },
      ],
    },
    { name: 'LEGAL', type: 'private', isDefault: false, sections: [] },
  ],
};

const target: PortalModule = {
  ...module,
  id: '1',
  builtIn: false,
  state: 'active',
  statuses: [],
  fields: [],
  layouts: [
    {
      id: '9',
      name: 'Standard',
      type: 'public',
      isDefault: true,
      sections: [{ id: '10', name: 'Details', fields: [] }],
    },
  ],
};

describe('names alike but for case in the source of a copy', () => {
  const items = planCopy([module], [target]);
  const byKey = new Map(items.map((item) => [item.key, item]));

  it('blocks the second of two layouts named alike, saying why and what to do', () => {
    expect(byKey.get('layout:assets/LEGAL')).toMatchObject({
      action: 'blocked',
      steps: [],
      detail:
        'The source has a layout “Legal” in “Assets” too; the service counts names that differ only in case as the same name, so only that one is copied. Rename one of them in the source, then plan again.',
    });
    const created = items
      .flatMap((item) => item.steps)
      .filter(
        (step): step is Extract<CopyStep, { do: 'createLayout' }> => step.do === 'createLayout',
      );
    expect(created.map((step) => step.name)).toEqual(['Legal']);
  });

  it('makes one section of two named alike in a layout, and says so', () => {
    const legal = byKey.get('layout:assets/Legal')!;
    expect(legal.action).toBe('create');
    expect(legal.steps.filter((step) => step.do === 'putSection')).toHaveLength(1);
    expect(legal.detail).toBe(
      'Sections: Gear. “GEAR” is the section “Gear” to the service, which counts names that differ only in case as the same name: its fields go there.',
    );
  });
});
