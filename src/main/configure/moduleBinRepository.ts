/**
 * The module bin as known here (table `module_bin`, migration 0012): modules trashed from this
 * computer, kept until recovered or deleted for good. The service lists no module bin and a
 * trashed module leaves its module list (and with it the mirror), so without this a module
 * trashed here could not be recovered from here. The only code that writes the table.
 */
import type Database from 'better-sqlite3';
import { namedStatements } from '../store/namedStatements';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import type { BinModule } from './moduleOverlay';
import binSql from './queries/moduleBin.sql?raw';

const queries = requireQueries(
  parseNamedQueries(binSql, 'moduleBin.sql'),
  ['insert', 'ofPortal', 'one', 'remove'] as const,
  'moduleBin.sql',
);

interface BinRow extends Omit<BinModule, 'details'> {
  details: string;
}

const parse = (row: BinRow): BinModule => ({
  ...row,
  details: JSON.parse(row.details) as Record<string, unknown>,
});

export class ModuleBinRepository {
  private readonly statement: ReturnType<typeof namedStatements<keyof typeof queries>>;

  constructor(db: Database.Database) {
    this.statement = namedStatements(db, queries);
  }

  put(portalId: string, module: BinModule): void {
    this.statement('insert').run({
      portalId,
      moduleId: module.id,
      apiName: module.apiName,
      singularName: module.singularName,
      pluralName: module.pluralName,
      details: JSON.stringify(module.details),
      records: module.records,
      trashedTime: module.trashedTime,
    });
  }

  ofPortal(portalId: string): BinModule[] {
    return (this.statement('ofPortal').all(portalId) as BinRow[]).map(parse);
  }

  get(portalId: string, moduleId: string): BinModule | undefined {
    const row = this.statement('one').get(portalId, moduleId) as BinRow | undefined;
    return row ? parse(row) : undefined;
  }

  remove(portalId: string, moduleId: string): void {
    this.statement('remove').run(portalId, moduleId);
  }
}
