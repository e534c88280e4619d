import type { Settings } from '../../../shared/ipc/settings';

export type AppliedTheme = 'light' | 'dark';

export function resolveTheme(
  preference: Settings['theme'],
  systemPrefersDark: boolean,
): AppliedTheme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}
