import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from '../../../src/main/bridge/webServer';
import {
  EVENTS_PATH,
  EVENTS_PROTOCOL,
  SECRET_PROTOCOL_PREFIX,
} from '../../../src/shared/ipc/webProtocol';
import { testEngine } from '../../support/engine';
import { tempDir } from '../../support/tempDir';

const servers: WebServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(socketHeartbeatMs: number) {
  const engine = testEngine();
  const warnings: string[] = [];
  const server = await startWebServer({
    dispatcher: engine.dispatcher,
    events: engine.events,
    staticDir: tempDir(),
    port: 0,
    socketHeartbeatMs,
    log: { warn: (message) => warnings.push(message) },
  });
  servers.push(server);
  return { server, warnings };
}

function openSocket(server: WebServer, autoPong: boolean): Promise<WebSocket> {
  const socket = new WebSocket(
    `ws://127.0.0.1:${server.port}${EVENTS_PATH}`,
    [EVENTS_PROTOCOL, `${SECRET_PROTOCOL_PREFIX}${server.secret}`],
    { headers: { Origin: `http://127.0.0.1:${server.port}` }, autoPong },
  );
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.once('open', () => resolve(socket)));
}

describe("web mode's events socket", () => {
  it('is closed when its peer stops answering (a tab on a machine gone to sleep, a dead tunnel)', async () => {
    // Without a heartbeat such a socket stayed open for good, and every pushed event was kept
    // for it in the engine's memory.
    const { server, warnings } = await serve(250);
    const silent = await openSocket(server, false);
    const live = await openSocket(server, true);
    let liveClosed = false;
    live.on('close', () => (liveClosed = true));
    const closed = await new Promise<boolean>((resolve) => {
      silent.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 3_000);
    });
    expect(closed).toBe(true);
    expect(warnings.join('\n')).toMatch(/did not answer for .* ms/);
    // A tab that answers is kept.
    expect(liveClosed).toBe(false);
    live.close();
  });
});
