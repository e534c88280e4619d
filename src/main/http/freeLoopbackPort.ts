import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 free at the time of asking (the OS picks it, the probe closes at once): for
 * a redirect URI that must be registered before its listener starts.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('The OS gave no port on 127.0.0.1.')),
      );
    });
  });
}
