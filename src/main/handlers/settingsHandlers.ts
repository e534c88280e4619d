import type { Handlers } from '../bridge/dispatcher';
import type { EventHub } from '../bridge/eventHub';
import type { Settings } from '../../shared/ipc/settings';
import type { SettingsRepository } from '../store/settingsRepository';

/** `onChange`: the engine's own parts that follow a setting (the sync's interval, ...). */
export function settingsHandlers(
  repository: SettingsRepository,
  events: EventHub,
  onChange: (settings: Settings) => void = () => undefined,
): Pick<Handlers, 'settings.get' | 'settings.set'> {
  return {
    'settings.get': () => repository.read(),
    'settings.set': (patch) => {
      const settings = repository.write(patch);
      onChange(settings);
      events.emit('settings.changed', settings);
      return settings;
    },
  };
}
