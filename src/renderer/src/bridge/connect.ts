import type { EngineLink } from './engineLink';
import { followNewSecrets, takeLaunchSecret } from './secret';
import { connectWebBridge } from './webBridge';

/**
 * The desktop app's preload exposes `window.portaldesk`; in web mode the page reaches the engine
 * over HTTP with the launch secret. Null when neither is available (web mode opened without the
 * printed address).
 */
export function connectToEngine(): EngineLink | null {
  const ipc = window.portaldesk;
  if (ipc) {
    return {
      bridge: ipc,
      transport: 'ipc',
      connection: () => 'connected',
      onConnectionChange: () => () => undefined,
    };
  }
  const secret = takeLaunchSecret() ?? null;
  // The address of another launch, opened in this tab, takes effect without a manual reload.
  followNewSecrets(secret);
  return secret ? connectWebBridge(secret) : null;
}
