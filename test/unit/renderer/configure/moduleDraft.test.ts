/**
 * What the Configure form sends: a new module's every setting (a global one on all projects), and
 * of an existing module only what changed, with "all projects" travelling with its project list
 * so the shared rules judge the list as it will be read.
 */
import { describe, expect, it } from 'vitest';
import {
  changesOf,
  draftOf,
  draftProblems,
  EMPTY_DRAFT,
  newModuleSettings,
} from '../../../../src/renderer/src/features/configure/moduleDraft';
import type { ConfigModule } from '../../../../src/shared/ipc/areas/configure';

const EQUIPMENT: ConfigModule = {
  id: '2001',
  apiName: 'equipment',
  singularName: 'Equipment item',
  pluralName: 'Equipment',
  iconClass: 'fa-wrench',
  isGlobal: false,
  isAllProjects: false,
  isOverviewNeeded: false,
  defaultLayoutType: null,
  builtIn: false,
  state: 'active',
  records: 3,
  projects: [
    { id: '3001', name: 'Harbour Bridge', selected: true },
    { id: '3002', name: 'Ferry Terminal', selected: false },
  ],
  localOnly: false,
  trashedTime: null,
  pending: [],
};

describe('the module draft', () => {
  it('sends a global module on all projects, whatever projects were ticked before', () => {
    const settings = newModuleSettings({
      ...EMPTY_DRAFT,
      singularName: ' Asset ',
      pluralName: 'Assets',
      iconClass: '  ',
      isGlobal: true,
      isAllProjects: false,
      projects: ['3001'],
    });
    expect(settings).toEqual({
      singularName: 'Asset',
      pluralName: 'Assets',
      iconClass: null,
      isGlobal: true,
      isAllProjects: true,
      isOverviewNeeded: false,
      defaultLayoutType: 'public',
      projects: [],
    });
  });

  it('sends nothing for an untouched module (a missing layout type reads as public)', () => {
    expect(changesOf(draftOf(EQUIPMENT), EQUIPMENT)).toEqual({});
    expect(changesOf({ ...draftOf(EQUIPMENT), pluralName: 'Equipment ' }, EQUIPMENT)).toEqual({});
  });

  it('sends the project list with "all projects", and refuses an empty one', () => {
    const draft = { ...draftOf(EQUIPMENT), projects: ['3002', '3001'] };
    expect(changesOf(draft, EQUIPMENT)).toEqual({
      isAllProjects: false,
      projects: ['3002', '3001'],
    });
    expect(changesOf({ ...draft, isAllProjects: true }, EQUIPMENT)).toEqual({
      isAllProjects: true,
    });
    const none = { ...draftOf(EQUIPMENT), projects: [] };
    expect(draftProblems(none, EQUIPMENT, []).projects).toMatch(/at least one project/);
  });
});
