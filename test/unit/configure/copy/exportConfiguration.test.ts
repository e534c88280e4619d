/**
 * What an export writes is always a file PortalDesk reads back: a module holding a field made
 * here and not sent yet (listed in its section by a temporary id) exports without that id, and
 * the file meets the schema.
 */
import { describe, expect, it } from 'vitest';
import {
  configurationDocument,
  configurationFileName,
} from '../../../../src/main/configure/copy/exportConfiguration';
import type { PortalModule } from '../../../../src/main/configure/copy/portalConfiguration';
import { readConfigurationDocument } from '../../../../src/main/configure/copy/readConfigurationDocument';

const TEMP = 'tmp-f-00000000000000a1';

const module: PortalModule = {
  id: '2001',
  apiName: 'assets',
  singularName: 'Asset',
  pluralName: 'Assets',
  iconClass: null,
  isGlobal: false,
  isAllProjects: true,
  isOverviewNeeded: false,
  defaultLayoutType: 'public',
  builtIn: false,
  state: 'active',
  layouts: [
    {
      id: '3001',
      name: 'Standard',
      type: 'public',
      isDefault: true,
      sections: [{ id: '4001', name: 'Details', fields: ['name', 'cf_cost', TEMP] }],
    },
  ],
  statuses: [
    { id: '5001', name: 'Open', color: '#2a64d6', closed: false, transitions: ['5002'] },
    { id: '5002', name: 'Done', color: '#1f8a4c', closed: true, transitions: [] },
  ],
  fields: [
    {
      id: TEMP,
      apiName: null,
      type: 'date',
      label: 'Warranty until',
      mandatory: false,
      pii: false,
      encrypted: false,
      description: null,
      defaultValue: null,
      hasInfo: false,
      currencyListType: null,
      currencyCode: null,
      precision: null,
      userListType: null,
      options: null,
    },
  ],
};

describe('exporting configuration', () => {
  it('writes a file that reads back, without temporary ids', () => {
    const document = configurationDocument(
      { id: '1000000000001', name: 'northwind' },
      [module],
      new Date('2026-11-26T09:00:00Z'),
    );
    const text = JSON.stringify(document);
    expect(text).not.toContain('tmp-');
    const read = readConfigurationDocument(text, 'northwind.json');
    expect(read.modules[0]!.layouts[0]!.sections[0]!.fields).toEqual(['name', 'cf_cost']);
    expect(read.modules[0]!.fields[0]).toMatchObject({ apiName: null, label: 'Warranty until' });
    // Transitions by name: ids belong to one portal.
    expect(read.modules[0]!.statuses![0]).toEqual({
      name: 'Open',
      color: '#2a64d6',
      closed: false,
      transitions: ['Done'],
    });
  });

  it('names the file after the portal and its modules', () => {
    expect(configurationFileName('North Wind', [module])).toBe(
      'north-wind-assets.configuration.json',
    );
  });
});
