/** The records workspace's named queries (./queries/records.sql), checked at start-up. */
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import recordsSql from './queries/records.sql?raw';

export const recordsQueries = requireQueries(
  parseNamedQueries(recordsSql, 'records.sql'),
  [
    'portals',
    'moduleCount',
    'layouts',
    'sections',
    'placements',
    'record',
    'editsOfRecord',
    'savedFilters',
    'countSavedFilters',
    'saveFilter',
    'savedFilterExists',
    'deleteFilter',
    'recent',
    'markViewed',
    'trimRecent',
    'recordExists',
    'dataVersion',
    'trashed',
  ] as const,
  'records.sql',
);
