import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from '../../shared/api';
import { connectToEngine } from './bridge/connect';
import { App } from './features/shell/App';
import { MissingSecret } from './features/shell/MissingSecret';
import { ShellContext } from './features/shell/ShellContext';
import { createShellStore } from './features/shell/shellStore';
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

  link.onConnectionChange((state) => {
    setConnection(state);
    // Anything may have changed while the engine was out of reach.
    if (state === 'connected') void load();
  });
  api.on('settings.changed', settingsChanged);
  window.addEventListener('online', () => setOnline(true));
  window.addEventListener('offline', () => setOnline(false));
  void load();

  root.render(
    <StrictMode>
      <ShellContext.Provider value={store}>
        <App />
      </ShellContext.Provider>
    </StrictMode>,
  );
}
