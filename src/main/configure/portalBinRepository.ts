/**
 * A portal's recycle bin as last read from the service (tables `portal_bin_items` and
 * `portal_bin_reads`, migration 0013): replaced whole on every read, and items leave it as
 * replayed restores and deletes take them out. The only code that writes the tables.
 */
import type Database from 'better-sqlite3';
import type { BinItem } from '@portaldesk/portal-api/domain/binItem';
import { namedStatements } from '../store/namedStatements';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import binSql from './queries/portalBin.sql?raw';

const queries = requireQueries(
  parseNamedQueries(binSql, 'portalBin.sql'),
  ['clear', 'insert', 'markRead', 'readAt', 'items', 'remove'] as const,
  'portalBin.sql',
);

export class PortalBinRepository {
  private readonly statement: ReturnType<typeof namedStatements<keyof typeof queries>>;

  constructor(private readonly db: Database.Database) {
    this.statement = namedStatements(db, queries);
  }

  /** The bin as the service listed it just now, replacing what was kept. */
  replace(portalId: string, items: readonly BinItem[], readAt: string): void {
    this.db.transaction(() => {
      this.statement('clear').run(portalId);
      for (const item of items) {
        this.statement('insert').run({
          portalId,
          id: item.id,
          module: item.module,
          name: item.name,
          item: JSON.stringify(item),
        });
      }
      this.statement('markRead').run(portalId, readAt);
    })();
  }

  items(portalId: string): BinItem[] {
    return (this.statement('items').pluck().all(portalId) as string[]).map(
      (text) => JSON.parse(text) as BinItem,
    );
  }

  readAt(portalId: string): string | null {
    return (this.statement('readAt').pluck().get(portalId) as string | undefined) ?? null;
  }

  remove(portalId: string, module: string, id: string): void {
    this.statement('remove').run(portalId, module, id);
  }

  clear(portalId: string): void {
    this.statement('clear').run(portalId);
  }
}
