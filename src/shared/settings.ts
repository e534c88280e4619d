import { z } from 'zod';

/** The user's preferences. Every key has a default so a fresh data directory needs no setup. */
export const Settings = z.object({
  /** `system` follows the operating system's light/dark preference. */
  theme: z.enum(['system', 'light', 'dark']),
  /** The user chose "Skip for now" on the first-run screen: open the app without an account. */
  firstRunSkipped: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = { theme: 'system', firstRunSkipped: false };

/** A change to some settings; unknown keys are refused rather than silently dropped. */
export const SettingsPatch = Settings.partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
