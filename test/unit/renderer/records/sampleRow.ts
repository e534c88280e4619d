import type { RecordRow } from '../../../../src/shared/ipc/areas/records';

/** A record as records.query returns it, with a value for several custom field types. */
export function sampleRow(patch: Partial<RecordRow> = {}): RecordRow {
  return {
    id: '1100000000001',
    portalId: '1000000000001',
    moduleId: '1000000000002',
    name: 'Lenovo ThinkPad',
    description: 'Assigned to the Pune office.',
    status: { id: '2003', name: 'Approved', color: '#1f8a4c', isClosedType: true },
    layoutId: null,
    project: { id: '77', name: 'Warehouse Automation' },
    owner: { zpuid: '5002', name: 'Jonas Weber', email: 'jonas@example.test' },
    isClosed: true,
    isExternal: false,
    createdTime: '2026-01-01T00:00:00.000Z',
    lastUpdatedTime: '2026-03-05T10:00:00.000Z',
    custom: {
      cf_cost: { currency_code: 'USD', formatted_amount: 'USD 10', amount: 10 },
      cf_tags: ['Critical'],
      cf_site: 'https://intranet.example/asset/1',
    },
    localOnly: false,
    pendingFields: [],
    commentsMirrored: true,
    ...patch,
  };
}
