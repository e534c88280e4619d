/**
 * Web mode's export downloads: a finished export's link (`records.exportLink`) serves its file
 * from `GET /api/exports/file/<token>` with its type, as an attachment; the token opens nothing
 * under the backups' path, and a cancelled export has no link.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../src/main/bridge/webServer';
import {
  BACKUP_FILE_PATH_PREFIX,
  EXPORT_FILE_PATH_PREFIX,
} from '../../../src/shared/ipc/webProtocol';
import { tempDir } from '../../support/tempDir';
import { MODULE, PORTAL, record, recordsWorkspace } from '../../unit/records/workspace';

const servers: WebServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function get(
  port: number,
  target: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: target, headers: { Host: `127.0.0.1:${port}` } },
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

describe("web mode's export file route", () => {
  it('serves a finished export by its link, typed, and nothing under another path', async () => {
    const workspace = recordsWorkspace();
    workspace.mirror.records.upsertRecords(Array.from({ length: 30 }, (_, i) => record(i + 1)));
    const { engine, ok, refused } = workspace;
    const server = await startWebServer({
      dispatcher: engine.dispatcher,
      events: engine.events,
      staticDir: tempDir(),
      port: 0,
      exportFiles: (token) => engine.exports.resolveDownload(token),
    });
    servers.push(server);
    const started = await ok('records.export', {
      portalId: PORTAL,
      moduleId: MODULE,
      columns: ['name', 'cf_cost'],
      format: 'xlsx',
      values: 'shown',
    });
    // Not finished yet: no link.
    expect((await refused('records.exportLink', { exportId: started.exportId })).message).toMatch(
      /no finished file/,
    );
    await engine.exports.idle();
    const link = await ok('records.exportLink', { exportId: started.exportId });
    expect(link.path.startsWith(EXPORT_FILE_PATH_PREFIX)).toBe(true);
    expect(link.fileName).toBe(started.fileName);
    const answer = await get(server.port, link.path);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="${started.fileName}"`,
    );
    expect(
      answer.body.equals(readFileSync(path.join(engine.exports.folder, started.fileName))),
    ).toBe(true);

    const token = link.path.slice(EXPORT_FILE_PATH_PREFIX.length);
    expect((await get(server.port, `${BACKUP_FILE_PATH_PREFIX}${token}`)).status).toBe(404);
    const unknown = await get(server.port, `${EXPORT_FILE_PATH_PREFIX}${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.toString()).toMatch(/names no finished export; export the view again/);
  });
});
