import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenForRedirect } from '../../../src/main/auth/loopbackListener';
import { parseLoopbackRedirectUri } from '../../../src/main/auth/loopbackRedirectUri';
import { rawExchange } from '../../support/rawHttp';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the sign-in loopback listener', () => {
  it('answers a request line that is no address with 400, and still takes the real redirect', async () => {
    const port = await freePort();
    const checked = parseLoopbackRedirectUri(`http://127.0.0.1:${port}/callback`);
    if (!checked.ok) throw new Error(checked.error);
    const pending = await listenForRedirect({
      redirect: checked.redirect,
      state: 'state-1',
      timeoutMs: 10_000,
    });
    try {
      expect(
        await rawExchange(port, `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
      ).toBe('HTTP/1.1 400 Bad Request');
      const answer = await fetch(`http://127.0.0.1:${port}/callback?code=c1&state=state-1`);
      expect(answer.status).toBe(200);
      expect(await pending.outcome).toMatchObject({ kind: 'code', code: 'c1' });
    } finally {
      pending.close();
    }
  });

  it('ignores a request under a foreign Host (DNS rebinding), even one carrying an error', async () => {
    const port = await freePort();
    const checked = parseLoopbackRedirectUri(`http://127.0.0.1:${port}/callback`);
    if (!checked.ok) throw new Error(checked.error);
    const pending = await listenForRedirect({
      redirect: checked.redirect,
      state: 'state-2',
      timeoutMs: 10_000,
    });
    try {
      // A page re-pointed at 127.0.0.1 could otherwise end the sign-in a user is finishing.
      for (const query of ['error=access_denied&state=state-2', 'code=c9&state=state-2']) {
        expect(
          await rawExchange(
            port,
            `GET /callback?${query} HTTP/1.1\r\nHost: evil.example:${port}\r\n\r\n`,
          ),
        ).toBe('HTTP/1.1 403 Forbidden');
      }
      // A redirect URI registered with localhost reaches us under that name.
      expect(
        await rawExchange(
          port,
          `GET /callback?code=c2&state=state-2 HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`,
        ),
      ).toBe('HTTP/1.1 200 OK');
      expect(await pending.outcome).toMatchObject({ kind: 'code', code: 'c2' });
    } finally {
      pending.close();
    }
  });
});
