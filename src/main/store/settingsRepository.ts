import type Database from 'better-sqlite3';
import { DEFAULT_SETTINGS, Settings, type SettingsPatch } from '../../shared/ipc/settings';
import { parseNamedQueries, requireQueries } from './sqlFile';
import settingsSql from './queries/settings.sql?raw';

const queries = requireQueries(
  parseNamedQueries(settingsSql, 'settings.sql'),
  ['all', 'upsert'] as const,
  'settings.sql',
);

export class SettingsRepository {
  private readonly selectAll: Database.Statement<[], { key: string; value: string }>;
  private readonly upsert: Database.Statement<{ key: string; value: string; updatedAt: string }>;

  constructor(private readonly db: Database.Database) {
    this.selectAll = db.prepare(queries.all);
    this.upsert = db.prepare(queries.upsert);
  }

  /**
   * Stored values over the defaults. A stored value this version cannot read (written by another
   * version, or a key since removed) falls back to its default instead of breaking start-up.
   */
  read(): Settings {
    const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    for (const row of this.selectAll.all()) {
      if (!Object.hasOwn(DEFAULT_SETTINGS, row.key)) continue;
      const candidate = { ...merged, [row.key]: JSON.parse(row.value) as unknown };
      if (Settings.safeParse(candidate).success) merged[row.key] = candidate[row.key];
    }
    return Settings.parse(merged);
  }

  /** Writes every key of the (already validated) patch in one transaction. */
  write(patch: SettingsPatch): Settings {
    const updatedAt = new Date().toISOString();
    this.db
      .transaction(() => {
        for (const [key, value] of Object.entries(patch)) {
          if (value !== undefined)
            this.upsert.run({ key, value: JSON.stringify(value), updatedAt });
        }
      })
      .immediate();
    return this.read();
  }
}
