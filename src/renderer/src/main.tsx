import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from '../../shared/ipc/api';
import { ApiContext } from './bridge/ApiContext';
import { connectToEngine } from './bridge/connect';
import { App } from './frame/App';
import { MissingSecret } from './frame/MissingSecret';
import { ShellContext } from './app/ShellContext';
import { createShellStore } from './app/shellStore';
import { LinkOpenerContext } from './features/records/LinkOpenerContext';
import { RecordsContext } from './features/records/RecordsContext';
import { createRecordsStore } from './features/records/recordsStore';
import { AccountsContext } from './features/accounts/AccountsContext';
import { createAccountsStore } from './features/accounts/accountsStore';
import { OutboxContext } from './features/outbox/OutboxContext';
import { createOutboxStore } from './features/outbox/outboxStore';
import { BackupsContext } from './features/backups/BackupsContext';
import { createBackupsStore } from './features/backups/backupsStore';
import { ConfigureContext } from './features/configure/ConfigureContext';
import { createConfigureStore } from './features/configure/configureStore';
import { SyncContext } from './features/sync/SyncContext';
import { createSyncStore } from './features/sync/syncStore';
import './styles.css';

const root = createRoot(document.getElementById('root')!);
const link = connectToEngine();

if (!link) {
  root.render(<MissingSecret />);
} else {
  const api = createApi(link.bridge);
  const store = createShellStore(api, {
    connection: link.connection(),
    online: navigator.onLine,
  });
  const { load, setConnection, setOnline, settingsChanged } = store.getState();
  const syncStore = createSyncStore(api);
  const recordsStore = createRecordsStore(api);
  const accountsStore = createAccountsStore(api);
  const outboxStore = createOutboxStore(api);
  const backupsStore = createBackupsStore(api);
  const configureStore = createConfigureStore(api);
  const openLink = (url: string, recordId: string) => {
    const portalId = recordsStore.getState().portalId;
    if (portalId === null) return;
    api.app.openLink({ portalId, recordId, url }).catch((error: unknown) => {
      store.getState().notify(error instanceof Error ? error.message : String(error));
    });
  };
  // Each feature's store reads its state from the engine at start and after a reconnection.
  const loadFeatures = () => {
    for (const feature of [syncStore, recordsStore, accountsStore, outboxStore, backupsStore]) {
      void feature.getState().load();
    }
    // Configure reads when its view opens; after a reconnection only if it has been open.
    if (configureStore.getState().portals !== null) void configureStore.getState().load();
  };
  api.on('accounts.changed', accountsStore.getState().changed);
  api.on('records.changed', recordsStore.getState().changed);

  link.onConnectionChange((state) => {
    setConnection(state);
    // Anything may have changed while the engine was out of reach.
    if (state === 'connected') {
      void load();
      loadFeatures();
    }
  });
  api.on('settings.changed', settingsChanged);
  window.addEventListener('online', () => setOnline(true));
  window.addEventListener('offline', () => setOnline(false));
  void load();
  loadFeatures();

  root.render(
    <StrictMode>
      <ShellContext.Provider value={store}>
        <SyncContext.Provider value={syncStore}>
          <RecordsContext.Provider value={recordsStore}>
            <AccountsContext.Provider value={accountsStore}>
              <OutboxContext.Provider value={outboxStore}>
                <BackupsContext.Provider value={backupsStore}>
                  <ConfigureContext.Provider value={configureStore}>
                    <ApiContext.Provider value={api}>
                      <LinkOpenerContext.Provider value={openLink}>
                        <App />
                      </LinkOpenerContext.Provider>
                    </ApiContext.Provider>
                  </ConfigureContext.Provider>
                </BackupsContext.Provider>
              </OutboxContext.Provider>
            </AccountsContext.Provider>
          </RecordsContext.Provider>
        </SyncContext.Provider>
      </ShellContext.Provider>
    </StrictMode>,
  );
}
