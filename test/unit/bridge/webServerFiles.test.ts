/**
 * Web mode's backup downloads: `GET /api/backups/file/<token>` serves only the file the engine
 * says the token opens; unknown tokens, other methods, foreign hosts and path tricks get nothing.
 */
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadLinks } from '../../../src/main/backups/downloadLinks';
import { startWebServer, type WebServer } from '../../../src/main/bridge/webServer';
import { testEngine } from '../../support/engine';
import { tempDir } from '../../support/tempDir';

const servers: WebServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function get(
  port: number,
  target: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: options.method ?? 'GET',
        headers: { Host: options.host ?? `127.0.0.1:${port}` },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function serve() {
  const dir = tempDir();
  const file = path.join(dir, '20261126T091203Z-42.zip');
  writeFileSync(file, Buffer.from('PK\u0003\u0004 archive bytes'));
  const links = new DownloadLinks();
  const { path: linkPath } = links.mint('7');
  const engine = testEngine();
  const server = await startWebServer({
    dispatcher: engine.dispatcher,
    events: engine.events,
    staticDir: dir,
    port: 0,
    files: (token) =>
      links.resolve(token) === '7' ? { file, fileName: path.basename(file) } : null,
  });
  servers.push(server);
  return { server, linkPath, file };
}

describe("web mode's backup file route", () => {
  it('serves the file a live token names, as an attachment, and nothing else', async () => {
    const { server, linkPath } = await serve();
    const ok = await get(server.port, linkPath);
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe('PK\u0003\u0004 archive bytes');
    expect(ok.headers['content-type']).toBe('application/zip');
    expect(ok.headers['content-disposition']).toBe(
      'attachment; filename="20261126T091203Z-42.zip"',
    );
    expect(ok.headers['content-length']).toBe(String(ok.body.length));
    const head = await get(server.port, linkPath, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);

    for (const target of [
      '/api/backups/file/',
      `/api/backups/file/${'A'.repeat(43)}`,
      `${linkPath}x`,
      '/api/backups/file/..%2F..%2Fsecret',
      '/api/backups/file/../../etc/passwd',
    ]) {
      const refused = await get(server.port, target);
      expect(refused.status, target).not.toBe(200);
      expect(refused.body.toString()).not.toContain('archive bytes');
    }
    expect((await get(server.port, linkPath, { method: 'POST' })).status).toBe(405);
    // DNS rebinding: a foreign Host gets nothing, even with a live token.
    const foreign = await get(server.port, linkPath, { host: 'evil.example' });
    expect(foreign.status).toBe(403);
  });

  it('serves nothing when the engine gives no file resolver', async () => {
    const engine = testEngine();
    const server = await startWebServer({
      dispatcher: engine.dispatcher,
      events: engine.events,
      staticDir: tempDir(),
      port: 0,
    });
    servers.push(server);
    expect((await get(server.port, `/api/backups/file/${'A'.repeat(43)}`)).status).toBe(404);
  });
});

describe('a file resolver that fails', () => {
  it('fails that download alone, in words without its internals, and the server goes on', async () => {
    // The resolver reads the store (backups) and was called outside the request's error
    // handling: one failure there ended the whole web mode process.
    const dir = tempDir();
    const file = path.join(dir, '20261126T091203Z-42.zip');
    writeFileSync(file, 'archive bytes');
    const failure = 'SqliteError: database is locked at /home/someone/.config/PortalDesk';
    let calls = 0;
    const warnings: string[] = [];
    const engine = testEngine();
    const server = await startWebServer({
      dispatcher: engine.dispatcher,
      events: engine.events,
      staticDir: dir,
      port: 0,
      log: { warn: (message) => warnings.push(message) },
      files: () => {
        calls += 1;
        if (calls === 1) throw new Error(failure);
        return { file, fileName: path.basename(file) };
      },
    });
    servers.push(server);
    const link = `/api/backups/file/${'A'.repeat(43)}`;
    const failed = await get(server.port, link);
    expect(failed.status).toBe(500);
    const { error } = JSON.parse(failed.body.toString()) as { error: { message: string } };
    expect(error.message).toMatch(/nothing was changed/);
    expect(error.message).not.toContain('database is locked');
    expect(error.message).not.toContain('/home/someone');
    // The detail goes where only the user running `npm run web` reads it.
    expect(warnings.join('\n')).toContain(failure);
    const again = await get(server.port, link);
    expect(again.status).toBe(200);
    expect(again.body.toString()).toBe('archive bytes');
  });
});
