/**
 * The renderer's Content-Security-Policy, in one place: the build writes the desktop's into
 * index.html's meta tag, the desktop protocol handler sends it as a header too, and the web server
 * sends web mode's as a header and in the meta tag of the page it serves.
 */
export interface CspOptions {
  /** `desktop` talks to the engine over IPC; `web` over HTTP and the engine's WebSocket. */
  mode: 'desktop' | 'web';
  /** The Vite dev server needs inline scripts/styles (HMR, React refresh) and its own socket. */
  devServerOrigin?: string;
  /** Web mode: the exact WebSocket origin of the engine, e.g. `ws://127.0.0.1:5123`. */
  socketOrigin?: string;
}

/** Loopback on any port: web mode's sockets when the engine's port is not known yet. */
const LOOPBACK_SOCKETS = ['ws://127.0.0.1:*', 'ws://localhost:*'];

/**
 * Which WebSocket origins the renderer may connect to. The desktop app uses no socket, so any
 * would only serve an injected script (for instance to reach a local service); web mode needs
 * exactly the engine's.
 */
export function socketSources(mode: CspOptions['mode'], socketOrigin?: string): string[] {
  if (mode === 'desktop') return [];
  return socketOrigin ? [socketOrigin] : [...LOOPBACK_SOCKETS];
}

export function contentSecurityPolicy(options: CspOptions): string {
  const { devServerOrigin, socketOrigin, mode } = options;
  const dev = devServerOrigin !== undefined;
  const directives: Record<string, string> = {
    'default-src': "'none'",
    'script-src': dev ? "'self' 'unsafe-inline'" : "'self'",
    'style-src': dev ? "'self' 'unsafe-inline'" : "'self'",
    'img-src': "'self' data:",
    'font-src': "'self'",
    'connect-src': [
      "'self'",
      ...socketSources(mode, socketOrigin),
      ...(dev ? [devServerOrigin, devServerOrigin.replace(/^http/, 'ws')] : []),
    ].join(' '),
    'base-uri': "'none'",
    'form-action': "'none'",
    'object-src': "'none'",
    'frame-src': "'none'",
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}
