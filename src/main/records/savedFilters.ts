import type Database from 'better-sqlite3';
import { SAVED_FILTERS_PER_MODULE_MAX, type SavedFilter } from '../../shared/ipc/areas/records';
import {
  checkFilter,
  formatFilterErrors,
  parseFilter,
  type FilterField,
} from '@portaldesk/portal-api/filter';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import { recordsQueries as queries } from './recordsQueries';

/**
 * Filters saved by name per module (table saved_filters, migration 0006). A filter is checked
 * against the module's fields before it is stored, so a saved filter always opens; saving under a
 * name that exists replaces that filter.
 */
export class SavedFilters {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {}

  list(portalId: string, moduleId: string): SavedFilter[] {
    return this.db.prepare(queries.savedFilters).all(portalId, moduleId) as SavedFilter[];
  }

  save(
    input: { portalId: string; moduleId: string; name: string; filter: string },
    fields: readonly FilterField[],
  ): SavedFilter[] {
    const parsed = parseFilter(input.filter);
    const problems = parsed.ok
      ? formatFilterErrors(checkFilter(parsed.filter, fields))
      : formatFilterErrors(parsed.errors);
    if (problems.length > 0) {
      throw new RecordQueryError(
        `The filter "${input.name}" was not saved: ${problems.join('; ')}. Saved filters are unchanged; correct the filter and save again.`,
        problems,
      );
    }
    const { portalId, moduleId, name } = input;
    this.db
      .transaction(() => {
        const replacing =
          this.db.prepare(queries.savedFilterExists).pluck().get(portalId, moduleId, name) === 1;
        const count = this.db
          .prepare(queries.countSavedFilters)
          .pluck()
          .get(portalId, moduleId) as number;
        if (!replacing && count >= SAVED_FILTERS_PER_MODULE_MAX) {
          throw new RecordQueryError(
            `The filter "${name}" was not saved: this module already has ${SAVED_FILTERS_PER_MODULE_MAX} saved filters, the most PortalDesk keeps. Delete one you no longer use, then save again.`,
          );
        }
        this.db.prepare(queries.saveFilter).run({
          portalId,
          moduleId,
          name,
          // Stored as the clean copy parseFilter gives, in the API's own JSON text.
          filter: JSON.stringify(parsed.ok ? parsed.filter : null),
          now: new Date(this.now()).toISOString(),
        });
      })
      .immediate();
    return this.list(portalId, moduleId);
  }

  delete(portalId: string, moduleId: string, id: number): SavedFilter[] {
    const { changes } = this.db.prepare(queries.deleteFilter).run(portalId, moduleId, id);
    if (changes === 0) {
      throw new RecordQueryError(
        `Saved filter ${id} does not exist in this module (deleted already?). Nothing was deleted; the list shows what is saved.`,
      );
    }
    return this.list(portalId, moduleId);
  }
}
