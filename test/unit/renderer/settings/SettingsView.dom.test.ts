// @vitest-environment happy-dom
/**
 * The Settings view's sync card as a person uses it: the interval menu and the background
 * comments switch send exactly the setting they name, a value from another version stays
 * selectable, and a change the engine refuses says it was not saved.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { SettingsView } from '../../../../src/renderer/src/features/settings/SettingsView';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { DEFAULT_SETTINGS, type Settings } from '../../../../src/shared/ipc/settings';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';

useDomTestEnvironment();

function renderSettings(initial: Partial<Settings> = {}, refuse = false) {
  let stored: Settings = { ...DEFAULT_SETTINGS, ...initial };
  const engine = fakeEngine({
    'settings.set': (patch) => {
      if (refuse) throw new Error('The data directory is read-only.');
      stored = { ...stored, ...patch };
      return stored;
    },
  });
  const store = createShellStore(engine.api, { connection: 'connected', online: true });
  store.setState({ settings: stored });
  render(createElement(ShellContext.Provider, { value: store }, createElement(SettingsView)));
  return { engine, user: userEvent.setup() };
}

const interval = () => screen.getByRole('combobox', { name: 'Sync automatically' });
const comments = () =>
  screen.getByRole('checkbox', { name: "Read every record's comments in the background" });

describe('settings: sync', () => {
  it('sends the interval and the background comments switch as they are chosen', async () => {
    const { engine, user } = renderSettings();
    expect((interval() as HTMLSelectElement).value).toBe('15');
    expect([...(interval() as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'Every 5 minutes',
      'Every 15 minutes',
      'Every 30 minutes',
      'Every hour',
      'Every 4 hours',
      'Only at start-up, after a sign-in and when asked',
    ]);
    await user.selectOptions(interval(), 'Every hour');
    await user.selectOptions(interval(), 'Only at start-up, after a sign-in and when asked');
    await user.click(comments());
    expect(engine.argsOf('settings.set')).toEqual([
      { autoSyncMinutes: 60 },
      { autoSyncMinutes: 0 },
      { backgroundComments: false },
    ]);
    expect((interval() as HTMLSelectElement).value).toBe('0');
    expect((comments() as HTMLInputElement).checked).toBe(false);
  });

  it('keeps an interval set elsewhere selectable, and says when a change was not saved', async () => {
    const { user } = renderSettings({ autoSyncMinutes: 45 }, true);
    expect((interval() as HTMLSelectElement).value).toBe('45');
    expect(screen.getByRole('option', { name: 'Every 45 minutes' })).toBeTruthy();
    await user.selectOptions(interval(), 'Every hour');
    expect(screen.getByRole('alert').textContent).toBe(
      'Your change was not saved: The data directory is read-only.',
    );
    expect((interval() as HTMLSelectElement).value).toBe('45');
  });
});
