/**
 * The renderer's Content-Security-Policy, in one place: the build writes it into index.html's meta
 * tag, and the desktop protocol handler and the web server send it as a header too.
 */
export interface CspOptions {
  /** The Vite dev server needs inline scripts/styles (HMR, React refresh) and its own socket. */
  devServerOrigin?: string;
  /** Web mode: the exact WebSocket origin of the engine, e.g. `ws://127.0.0.1:5123`. */
  socketOrigin?: string;
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const { devServerOrigin, socketOrigin } = options;
  const dev = devServerOrigin !== undefined;
  // The static meta tag cannot know web mode's port, so it allows loopback sockets on any port;
  // the web server's header narrows that to its own port (a page obeys both policies).
  const sockets = socketOrigin ?? 'ws://127.0.0.1:* ws://localhost:*';
  const directives: Record<string, string> = {
    'default-src': "'none'",
    'script-src': dev ? "'self' 'unsafe-inline'" : "'self'",
    'style-src': dev ? "'self' 'unsafe-inline'" : "'self'",
    'img-src': "'self' data:",
    'font-src': "'self'",
    'connect-src': [
      "'self'",
      sockets,
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
