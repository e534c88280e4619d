import type { ReactElement } from 'react';
import { useRecords } from '../records/RecordsContext';
import { useShell } from '../../app/ShellContext';
import './accounts.css';
import { useAccounts } from './AccountsContext';
import { FirstRunScreen } from './FirstRunScreen';

/**
 * The first-run screen while no account exists and the user has not skipped it (a setting); null once the
 * app itself should show. Used by the shell's App before it renders anything else.
 */
export function useFirstRunScreen(): ReactElement | null {
  const state = useAccounts((s) => s.state);
  const settings = useShell((s) => s.settings);
  const changeSettings = useShell((s) => s.changeSettings);
  // A mirror kept from an account since signed out stays readable without the welcome first.
  const portals = useRecords((s) => s.portals);
  // Skipping is a setting, so a restart does not ask again; signing in later stays one click away.
  if (
    state &&
    settings &&
    portals !== null &&
    portals.length === 0 &&
    state.accounts.length === 0 &&
    !settings.firstRunSkipped
  ) {
    return <FirstRunScreen onSkip={() => void changeSettings({ firstRunSkipped: true })} />;
  }
  return null;
}
