/**
 * One portal's module whose fields cover every filter kind (and one field that cannot be
 * filtered by), as `records.columns` answers: for the filter builder's and the workspace's tests.
 */
import type {
  RecordsColumns,
  RecordsField,
  RecordsPortal,
} from '../../../../src/shared/ipc/areas/records';
import type { FieldKind } from '@portaldesk/portal-api/filter';

export const PORTAL_ID = '1000000000001';
export const MODULE_ID = '1000000000002';

/** The portal `PORTAL_ID`, as `records.portals` lists it. */
export const PORTAL: RecordsPortal = {
  id: PORTAL_ID,
  accountId: '1',
  dc: 'us',
  name: 'Bluefin',
  orgName: null,
  timeZone: 'UTC',
  isDefault: true,
};

const field = (
  key: string,
  label: string,
  type: string,
  filterKind: FieldKind | null,
  options: RecordsField['options'] = [],
): RecordsField => ({ key, label, type, system: false, sortable: true, filterKind, options });

export const COLUMNS: RecordsColumns = {
  portalId: PORTAL_ID,
  moduleId: MODULE_ID,
  timeZone: 'UTC',
  fields: [
    field('name', 'Name', 'name', 'text'),
    field('status', 'Status', 'status', 'status'),
    field('owner', 'Owner', 'owner', 'user'),
    field('created_time', 'Created', 'timestamp', 'datetime'),
    field('cf_cost', 'Cost', 'currency', 'number'),
    field('cf_due', 'Due', 'date', 'date'),
    field('cf_insured', 'Insured', 'check_box', 'boolean'),
    field('cf_category', 'Category', 'pick_list', 'picklist', [
      { id: '31', name: 'Hardware' },
      { id: '32', name: 'Network' },
    ]),
    field('cf_tags', 'Tags', 'multi_select', 'multipicklist', [
      { id: '41', name: 'Critical' },
      { id: '42', name: 'Leased' },
    ]),
    field('cf_watchers', 'Watchers', 'multi_user', 'multipicklist'),
    // Not filterable: the builder must not offer it.
    field('cf_notes', 'Notes', 'multi_line', null),
  ],
  statuses: [
    { id: '2001', name: 'Open', color: '#2a64d6', isClosedType: false },
    { id: '2003', name: 'Approved', color: '#1f8a4c', isClosedType: true },
  ],
  users: [
    { zpuid: '5001', name: 'Maya Raman', email: null },
    { zpuid: '5002', name: 'Jonas Weber', email: null },
  ],
  layouts: [],
};
