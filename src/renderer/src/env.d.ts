import type { Bridge } from '../../shared/ipc/contract';

declare global {
  interface Window {
    /** Exposed by the preload in the desktop app; absent in web mode. */
    portaldesk?: Bridge;
  }
}
