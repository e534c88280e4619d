import { z } from 'zod';

/** The user's preferences. Every key has a default so a fresh data directory needs no setup. */
export const Settings = z.object({
  /** `system` follows the operating system's light/dark preference. */
  theme: z.enum(['system', 'light', 'dark']),
  /** The user chose "Skip for now" on the first-run screen: open the app without an account. */
  firstRunSkipped: z.boolean(),
  /**
   * Minutes between automatic syncs while the app runs; 0: none (a sync still runs at start-up,
   * after a sign-in and when asked). Ours: 15 by default; at most a day.
   */
  autoSyncMinutes: z.number().int().min(0).max(1440),
  /**
   * Read the comments of every record in the background after a sync, with the calls the rate
   * limit leaves (one call a record). Off: comments are read for changed records during a sync
   * and for a record when it is opened.
   */
  backgroundComments: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  firstRunSkipped: false,
  autoSyncMinutes: 15,
  backgroundComments: true,
};

/** What the sync takes from the settings: the periodic sync's interval (null: none) and more. */
export interface SyncPreferences {
  periodicMs: number | null;
  commentBackfill: boolean;
}

export function syncPreferences(settings: Settings): SyncPreferences {
  return {
    periodicMs: settings.autoSyncMinutes === 0 ? null : settings.autoSyncMinutes * 60_000,
    commentBackfill: settings.backgroundComments,
  };
}

/** A change to some settings; unknown keys are refused rather than silently dropped. */
export const SettingsPatch = Settings.partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
