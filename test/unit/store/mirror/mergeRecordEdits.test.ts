import { describe, expect, it } from 'vitest';
import {
  mergeRecordEdits,
  type StoredRecordRow,
} from '../../../../src/main/store/mirror/mergeRecordEdits';

const ROW: StoredRecordRow = {
  row_key: 1,
  portal_id: 'p',
  module_key: 1,
  id: '10',
  name: 'Server name',
  name_fold: 'server name',
  name_sort: 'server name',
  description: 'Server text',
  status_id: '1',
  layout_id: 'l1',
  project_id: 'pr1',
  project_name: 'Warehouse',
  owner_zpuid: 'u1',
  is_closed: 0,
  is_external: 0,
  created_time: '2026-01-01T00:00:00.000Z',
  last_updated_time: '2026-01-02T00:00:00.000Z',
  trashed_time: null,
  custom: JSON.stringify({ cf_a: 'kept', cf_b: 'server', cf_c: 3 }),
  local_only: 0,
};

describe('mergeRecordEdits', () => {
  it('lays each edited field over the server copy, in the shapes the API shows', () => {
    const merged = mergeRecordEdits(
      ROW,
      [
        { field: 'name', value: 'STRASSE edited 10' },
        { field: 'description', value: null },
        { field: 'status', value: { id: '2' } },
        { field: 'project', value: null },
        { field: 'is_external', value: true },
        { field: 'cf_b', value: 'mine' },
        { field: 'cf_c', value: null },
      ],
      new Set(['2']),
    );
    expect(merged).toMatchObject({
      name: 'STRASSE edited 10',
      name_fold: 'strasse edited 10',
      // The name's natural sort key follows it: the lists sort edited rows by it.
      name_sort: 'strasse edited 12100',
      description: '',
      status_id: '2',
      is_closed: 1,
      project_id: null,
      project_name: null,
      is_external: 1,
      layout_id: 'l1',
    });
    expect(JSON.parse(merged.custom)).toEqual({ cf_a: 'kept', cf_b: 'mine', cf_c: null });
    // The server copy itself is not changed.
    expect(ROW.name).toBe('Server name');
  });

  it('returns the row as it is without edits', () => {
    expect(mergeRecordEdits(ROW, [], new Set())).toBe(ROW);
  });
});
