/**
 * The emulator layout's records in the API's shape, from hostile archives: a field named
 * `__proto__` is dropped rather than becoming the record's prototype, and records of unknown
 * modules or of no object shape are skipped.
 */
import { describe, expect, it } from 'vitest';
import { readEntity } from '@portaldesk/portal-api/domain/readEntity';
import { PortalArchiveRecords } from '../../../src/main/backups/portalArchiveRecords';

const module = (fields: unknown[]) => ({
  api_name: 'assets',
  fields,
  layouts: [
    { id: '7', sections: [{ fields: fields.map((_, i) => ({ field_id: String(i + 1) })) }] },
  ],
  statuses: [{ id: '9', is_closed_type: false }],
});

const record = (custom: Record<string, unknown>) => ({
  id: '100',
  module: 'assets',
  name: 'A',
  description: '',
  status: { id: '9' },
  layout: { id: '7' },
  owner: { zpuid: 'u1' },
  custom_fields: custom,
  created_time: '2026-11-26T09:00:00Z',
  last_updated_time: '2026-11-26T09:00:00Z',
  trashed_time: null,
});

describe('PortalArchiveRecords', () => {
  it('drops a field named __proto__ and keeps the record an ordinary object', () => {
    const records = new PortalArchiveRecords();
    records.add(
      'modules.json',
      module([
        { id: '1', api_name: '__proto__', field_type: 'single_line' },
        { id: '2', api_name: 'cf_serial', field_type: 'single_line' },
      ]),
    );
    const read = records.add(
      'entities.json',
      record({ __proto__: { polluted: true }, cf_serial: 'SN-1' }),
    );
    expect(read).not.toBeNull();
    expect(Object.getPrototypeOf(read!.entity)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(readEntity(read!.entity)?.custom).toEqual({ cf_serial: 'SN-1' });
  });

  it('skips what is not a record of a known module', () => {
    const records = new PortalArchiveRecords();
    expect(records.add('entities.json', record({}))).toBeNull();
    records.add('modules.json', module([]));
    for (const bad of [null, 7, 'x', [], { ...record({}), module: 'nope' }]) {
      expect(records.add('entities.json', bad)).toBeNull();
    }
  });
});
