import type { AppInfo } from '../shared/contract';
import { APP_NAME } from './appIdentity';
import { ContractDispatcher, type DispatcherLog, type Handlers } from './bridge/dispatcher';
import { EventHub } from './bridge/eventHub';
import { appHandlers } from './handlers/appHandlers';
import { settingsHandlers } from './handlers/settingsHandlers';
import { Mirror } from './store/mirror/mirror';
import { SettingsRepository } from './store/settingsRepository';
import { Store, type StoreOptions } from './store/store';

export interface EngineOptions {
  dataDir: string;
  mode: AppInfo['mode'];
  version: string;
  nativeBinding?: string;
  migrations?: StoreOptions['migrations'];
  log?: DispatcherLog;
}

/**
 * Everything PortalDesk does, independent of how it is shown: the store, the handlers and the
 * event hub. Electron's main process and web mode's Node process each start exactly one.
 */
export interface Engine {
  readonly dispatcher: ContractDispatcher;
  readonly events: EventHub;
  readonly store: Store;
  /** The local mirror of every portal, on the store's connection. */
  readonly mirror: Mirror;
  info(): AppInfo;
  close(): void;
}

export function startEngine(options: EngineOptions): Engine {
  const store = Store.open({
    dataDir: options.dataDir,
    mode: options.mode,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.migrations ? { migrations: options.migrations } : {}),
  });
  const events = new EventHub();
  const mirror = new Mirror(store.db);
  const info = (): AppInfo => ({
    name: APP_NAME,
    version: options.version,
    mode: options.mode,
    dataDir: options.dataDir,
    schemaVersion: store.schemaVersion,
    platform: process.platform,
  });
  // One line per area; each area's handlers are a factory in ./handlers taking what it needs.
  const handlers = {
    ...appHandlers(info),
    ...settingsHandlers(new SettingsRepository(store.db), events),
  } satisfies Handlers;

  return {
    dispatcher: new ContractDispatcher(handlers, options.log),
    events,
    store,
    mirror,
    info,
    close: () => store.close(),
  };
}
