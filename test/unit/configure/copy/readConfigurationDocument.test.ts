/**
 * A configuration file is read only when it meets the schema; every refusal says in words where
 * and what (a path like `modules[0].fields[1].label`), and a document PortalDesk exports is always
 * read back unchanged.
 */
import { describe, expect, it } from 'vitest';
import {
  CONFIGURATION_FORMAT,
  type ConfigurationDocument,
} from '../../../../src/main/configure/copy/configurationDocument';
import { readConfigurationDocument } from '../../../../src/main/configure/copy/readConfigurationDocument';

function document(): ConfigurationDocument {
  return {
    format: CONFIGURATION_FORMAT,
    version: 1,
    exportedAt: '2026-11-26T08:00:00.000Z',
    source: { portalId: '1000000000001', portalName: 'northwind' },
    modules: [
      {
        apiName: 'assets',
        singularName: 'Asset',
        pluralName: 'Assets',
        iconClass: null,
        isGlobal: false,
        isAllProjects: true,
        isOverviewNeeded: false,
        defaultLayoutType: 'public',
        statuses: [
          { name: 'Open', color: '#2a64d6', closed: false, transitions: ['Done'] },
          { name: 'Done', color: '#1f8a4c', closed: true, transitions: [] },
        ],
        layouts: [
          {
            name: 'Standard',
            type: 'public',
            isDefault: true,
            sections: [{ name: 'Details', fields: ['name', 'cf_category'] }],
          },
        ],
        fields: [
          {
            apiName: 'cf_category',
            type: 'pick_list',
            label: 'Category',
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
            options: ['Hardware', 'Software'],
          },
        ],
      },
    ],
  };
}

const read = (value: unknown) =>
  readConfigurationDocument(typeof value === 'string' ? value : JSON.stringify(value), 'c.json');

describe('reading a configuration file', () => {
  it('reads a valid document back unchanged', () => {
    expect(read(document())).toEqual(document());
  });

  it('refuses text that is not JSON, saying so', () => {
    expect(() => read('{"format": ')).toThrow(/c\.json is not JSON .*Nothing was planned/);
  });

  it('refuses another kind of file and another version by name', () => {
    expect(() => read({ hello: 1 })).toThrow(/not a PortalDesk configuration file/);
    expect(() => read([])).toThrow(/not a PortalDesk configuration file/);
    expect(() => read({ ...document(), version: 2 })).toThrow(
      /version 2; this PortalDesk reads version 1/,
    );
  });

  it('names the place and the rule of each problem', () => {
    const long = document();
    long.modules[0]!.fields[0]!.label = 'x'.repeat(251);
    expect(() => read(long)).toThrow('modules[0].fields[0].label: at most 250 characters.');

    const badType = document() as unknown as { modules: { fields: { type: string }[] }[] };
    badType.modules[0]!.fields[0]!.type = 'hologram';
    expect(() => read(badType)).toThrow(
      /modules\[0\]\.fields\[0\]\.type: one of single_line, multi_line/,
    );

    const extra = document() as unknown as { modules: Record<string, unknown>[] };
    extra.modules[0]!.secret = true;
    expect(() => read(extra)).toThrow('modules[0]: secret is not part of a configuration file.');

    const missing = document() as unknown as { modules: Record<string, unknown>[] };
    delete missing.modules[0]!.layouts;
    expect(() => read(missing)).toThrow('modules[0]: layouts is missing.');

    const tooMany = document();
    tooMany.modules[0]!.fields[0]!.options = Array.from({ length: 1001 }, (_, i) => `o${i}`);
    expect(() => read(tooMany)).toThrow('modules[0].fields[0].options: at most 1000 entries.');

    const badColour = document();
    badColour.modules[0]!.statuses![0]!.color = 'red';
    expect(() => read(badColour)).toThrow(/modules\[0\]\.statuses\[0\]\.color: must match pattern/);

    const badName = document();
    badName.modules[0]!.layouts[0]!.sections[0]!.fields.push('../etc');
    expect(() => read(badName)).toThrow(/modules\[0\]\.layouts\[0\]\.sections\[0\]\.fields\[2\]/);
  });

  it('judges a __proto__ key as the file’s own, and refuses it', () => {
    const text = JSON.stringify(document()).replace(
      '"apiName":"assets"',
      '"__proto__":{"polluted":true},"apiName":"assets"',
    );
    expect(() => read(text)).toThrow(/__proto__ is not part of a configuration file/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shows the first five problems and counts the rest', () => {
    const many = document();
    many.modules = Array.from({ length: 8 }, () => ({ ...document().modules[0]!, pluralName: '' }));
    expect(() => read(many)).toThrow(/\(and 3 more\)/);
  });
});
