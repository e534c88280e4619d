/**
 * A migration's test: a store in a fresh data directory at the app's migrations before it (to
 * fill as an older version left it), and the same directory opened again with all of them.
 */
import { appMigrations, Store } from '../../src/main/store/store';
import { tempDir } from './tempDir';

export function storeBeforeMigration(name: string): { old: Store; migrated(): Store } {
  const dataDir = tempDir();
  const old = Store.open({
    dataDir,
    mode: 'test',
    migrations: appMigrations.filter((m) => m.name < name),
  });
  return { old, migrated: () => Store.open({ dataDir, mode: 'test' }) };
}
