import type { Handlers } from '../bridge/dispatcher';
import type { EventHub } from '../bridge/eventHub';
import type { SettingsRepository } from '../store/settingsRepository';

export function settingsHandlers(
  repository: SettingsRepository,
  events: EventHub,
): Pick<Handlers, 'settings.get' | 'settings.set'> {
  return {
    'settings.get': () => repository.read(),
    'settings.set': (patch) => {
      const settings = repository.write(patch);
      events.emit('settings.changed', settings);
      return settings;
    },
  };
}
