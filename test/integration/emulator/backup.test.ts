import { TextWriter, Uint8ArrayReader, ZipReader, type FileEntry } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_CODE_MAX,
  ACCESS_CODE_MIN,
  BACKUP_REUSE_MS,
  GENERATION_MS,
} from '@portaldesk/emulator/backup/exportRules';
import { api, grantToken, testEmulator } from '../../support/emulator';

type Emulator = Awaited<ReturnType<typeof testEmulator>>;

const CODE = 'correct horse battery';
const MINUTE = 60_000;

async function setup(options: Parameters<typeof testEmulator>[0] = {}) {
  const emulator = await testEmulator(options);
  const base = emulator.dcs.us!.api;
  const token = grantToken(emulator, { lifetimeMs: 10 * BACKUP_REUSE_MS });
  const portalId = emulator.portals[0]!;
  const prefix = `/api/v3/portal/${portalId}`;
  const schedule = (fields: Record<string, string>, withToken = token) =>
    post(base, withToken, `${prefix}/portal_export`, fields);
  const status = (exportId: string) =>
    api(base, token, 'GET', `${prefix}/portal_export/${exportId}/status`);
  return { emulator, base, token, portalId, prefix, schedule, status };
}

/** POST with form fields, as the spec describes portal_export. */
async function post(base: string, token: string, path: string, fields: Record<string, string>) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: new URLSearchParams(fields),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect replies loosely
  return { status: response.status, body: (await response.json()) as any };
}

function exportCount(emulator: Emulator): number {
  return (emulator.state.db.prepare('SELECT COUNT(*) AS n FROM exports').get() as { n: number }).n;
}

async function download(url: string) {
  const response = await fetch(url);
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Every entry of the archive as parsed JSON, decrypted with `password`. */
async function openArchive(bytes: Uint8Array, password: string) {
  const reader = new ZipReader(new Uint8ArrayReader(bytes), { password, useWebWorkers: false });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect the JSON loosely
  const files: Record<string, any> = {};
  for (const entry of await reader.getEntries()) {
    if (entry.directory) continue;
    expect(entry.encrypted, entry.filename).toBe(true);
    files[entry.filename] = JSON.parse(await entry.getData(new TextWriter()));
  }
  await reader.close();
  return files;
}

/** Schedules a backup and moves the clock past its generation. */
async function completedBackup(context: Awaited<ReturnType<typeof setup>>, attachments = false) {
  const scheduled = await context.schedule({
    access_code: CODE,
    attachment_needed: String(attachments),
  });
  expect(scheduled.status).toBe(202);
  context.emulator.state.clock.advance(GENERATION_MS);
  const done = await context.status(scheduled.body.portal_export.id);
  expect(done.body.portal_export.status).toBe('completed');
  return done.body.portal_export as { id: string; download_url: string };
}

describe('data backup: POST portal_export', () => {
  it('schedules a backup: 202, in progress, no download URL yet', async () => {
    const { schedule, emulator } = await setup();
    const reply = await schedule({ access_code: CODE, attachment_needed: 'false' });
    expect(reply.status).toBe(202);
    expect(reply.body.is_reused).toBe(false);
    expect(reply.body.portal_export).toEqual({
      id: expect.stringMatching(/^\d+$/),
      status: 'in_progress',
      attachment_needed: false,
      requested_by: expect.objectContaining({ email: emulator.user.email }),
      requested_time: expect.any(String),
      completed_time: null,
      download_url: null,
    });
    expect(exportCount(emulator)).toBe(1);
  });

  it('validates access_code (8-64 characters) and attachment_needed; a refusal creates nothing', async () => {
    const { schedule, emulator } = await setup();
    const cases: [Record<string, string>, string][] = [
      [{}, 'access_code is required.'],
      [{ access_code: '' }, 'access_code is required.'],
      [
        { access_code: 'x'.repeat(ACCESS_CODE_MIN - 1) },
        'access_code is shorter than 8 characters.',
      ],
      [
        { access_code: 'x'.repeat(ACCESS_CODE_MAX + 1) },
        'access_code is longer than 64 characters.',
      ],
      [{ access_code: 'tab\there-ok' }, 'access_code must not contain control characters.'],
      [
        { access_code: CODE, attachment_needed: 'yes' },
        'attachment_needed must be true or false, not "yes".',
      ],
    ];
    for (const [fields, message] of cases) {
      const reply = await schedule(fields);
      expect(reply.status, JSON.stringify(fields)).toBe(400);
      expect(reply.body).toMatchObject({ errorCode: 'INVALID_PARAMETER_VALUE', message });
    }
    expect(exportCount(emulator)).toBe(0);
    expect((await schedule({ access_code: 'x'.repeat(ACCESS_CODE_MIN) })).status).toBe(202);
  });

  it('accepts a 64-character access code, and the same fields as JSON', async () => {
    const { base, token, prefix, emulator } = await setup();
    const reply = await api(base, token, 'POST', `${prefix}/portal_export`, {
      access_code: 'é'.repeat(ACCESS_CODE_MAX),
      attachment_needed: true,
    });
    expect(reply.status).toBe(202);
    expect(reply.body.portal_export.attachment_needed).toBe(true);
    expect(exportCount(emulator)).toBe(1);
  });

  it('returns the backup made within the last 24 hours, and makes a new one after', async () => {
    const context = await setup();
    const { schedule, emulator } = context;
    const first = await schedule({ access_code: CODE });
    // While it is still generating.
    const again = await schedule({ access_code: 'another code 123' });
    expect(again.status).toBe(200);
    expect(again.body.is_reused).toBe(true);
    expect(again.body.portal_export.id).toBe(first.body.portal_export.id);
    expect(again.body.portal_export.status).toBe('in_progress');

    // A minute before 24 hours after its generation completed: still the same, now with a link.
    emulator.state.clock.advance(GENERATION_MS + BACKUP_REUSE_MS - MINUTE);
    const reused = await schedule({ access_code: CODE });
    expect(reused.status).toBe(200);
    expect(reused.body.portal_export).toMatchObject({
      id: first.body.portal_export.id,
      status: 'completed',
      download_url: expect.stringMatching(/\/__downloads\/[A-Za-z0-9_-]{32}\.zip$/),
    });
    expect(exportCount(emulator)).toBe(1);

    emulator.state.clock.advance(2 * MINUTE);
    const fresh = await schedule({ access_code: CODE });
    expect(fresh.status).toBe(202);
    expect(fresh.body.is_reused).toBe(false);
    expect(fresh.body.portal_export.id).not.toBe(first.body.portal_export.id);
    expect(exportCount(emulator)).toBe(2);
  });

  it('keeps backups per portal', async () => {
    const { schedule, base, token, emulator } = await setup();
    const first = await schedule({ access_code: CODE });
    const other = await post(base, token, `/api/v3/portal/${emulator.portals[1]}/portal_export`, {
      access_code: CODE,
    });
    expect(other.status).toBe(202);
    expect(other.body.portal_export.id).not.toBe(first.body.portal_export.id);
  });

  it('needs PMS.portals.READ and PMSFiles.files.READ', async () => {
    const { emulator, base, prefix } = await setup();
    for (const scopes of [['PMS.portals.READ'], ['PMSFiles.files.READ']]) {
      const token = grantToken(emulator, { scopes });
      const scheduled = await post(base, token, `${prefix}/portal_export`, { access_code: CODE });
      expect(scheduled.status, scopes[0]).toBe(403);
      const history = await api(base, token, 'GET', `${prefix}/portal_export/history`);
      expect(history.status, scopes[0]).toBe(403);
      const status = await api(base, token, 'GET', `${prefix}/portal_export/1/status`);
      expect(status.status, scopes[0]).toBe(403);
    }
    expect(exportCount(emulator)).toBe(0);
    const both = grantToken(emulator, { scopes: ['PMS.portals.READ', 'PMSFiles.files.READ'] });
    expect((await post(base, both, `${prefix}/portal_export`, { access_code: CODE })).status).toBe(
      202,
    );
  });
});

describe('data backup: status and history', () => {
  it('reports in_progress, then completed with a download URL after 2 emulated minutes', async () => {
    const { schedule, status, emulator } = await setup();
    const scheduled = await schedule({ access_code: CODE });
    const id = scheduled.body.portal_export.id;
    emulator.state.clock.advance(GENERATION_MS - 1000);
    const pending = await status(id);
    expect(pending.status).toBe(200);
    expect(pending.body.portal_export).toMatchObject({
      id,
      status: 'in_progress',
      download_url: null,
    });
    emulator.state.clock.advance(1000);
    const done = await status(id);
    expect(done.body.portal_export).toMatchObject({
      id,
      status: 'completed',
      completed_time: expect.any(String),
      download_url: expect.stringContaining(`${emulator.dcs.us!.api}/__downloads/`),
    });
    const row = emulator.state.db
      .prepare('SELECT status FROM exports WHERE id = ?')
      .get(Number(id));
    expect(row).toEqual({ status: 'completed' });
  });

  it('is fast under --time-scale', async () => {
    // 2 emulated minutes at 1200x are 100 real milliseconds.
    const { schedule, status } = await setup({ timeScale: 1200 });
    const scheduled = await schedule({ access_code: CODE });
    const started = Date.now();
    let state = scheduled.body.portal_export.status;
    while (state !== 'completed' && Date.now() - started < 3000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      state = (await status(scheduled.body.portal_export.id)).body.portal_export.status;
    }
    expect(state).toBe('completed');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers 404 for an unknown export or another portal export, 400 for a bad id', async () => {
    const { schedule, base, token, emulator, status } = await setup();
    const scheduled = await schedule({ access_code: CODE });
    expect((await status('123456789')).status).toBe(404);
    const elsewhere = await api(
      base,
      token,
      'GET',
      `/api/v3/portal/${emulator.portals[1]}/portal_export/${scheduled.body.portal_export.id}/status`,
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.errorCode).toBe('RESOURCE_NOT_FOUND');
    expect((await status('abc')).status).toBe(400);
  });

  it('history lists backups newest first with status and links, paginated', async () => {
    const { schedule, base, token, prefix, emulator } = await setup();
    const first = await schedule({ access_code: CODE });
    emulator.state.clock.advance(GENERATION_MS + BACKUP_REUSE_MS);
    const second = await schedule({ access_code: CODE });
    const history = await api(base, token, 'GET', `${prefix}/portal_export/history`);
    expect(history.status).toBe(200);
    expect(history.body.portal_exports.map((entry: { id: string }) => entry.id)).toEqual([
      second.body.portal_export.id,
      first.body.portal_export.id,
    ]);
    const [newer, older] = history.body.portal_exports;
    expect(newer).toMatchObject({ status: 'in_progress', download_url: null });
    expect(older).toMatchObject({
      status: 'completed',
      download_url: expect.stringMatching(/\.zip$/),
    });
    expect(history.body.page_info).toEqual({
      page: 1,
      per_page: 100,
      page_count: 2,
      has_next_page: false,
    });
    const paged = await api(
      base,
      token,
      'GET',
      `${prefix}/portal_export/history?per_page=1&page=2`,
    );
    expect(paged.body.portal_exports.map((entry: { id: string }) => entry.id)).toEqual([
      first.body.portal_export.id,
    ]);
    expect(paged.body.page_info).toMatchObject({ page: 2, per_page: 1, has_next_page: false });
    expect(
      (await api(base, token, 'GET', `${prefix}/portal_export/history?per_page=201`)).status,
    ).toBe(400);
  });
});

describe('data backup: the download', () => {
  it('is a ZIP encrypted with the access code whose contents match the portal data', async () => {
    // Enough records that entities.json is written in more than one batch of rows.
    const context = await setup({ records: 2000 });
    const { emulator, portalId } = context;
    const { db } = emulator.state;
    const backup = await completedBackup(context);
    const { response, bytes } = await download(backup.download_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('.zip');
    expect([...bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);

    const files = await openArchive(bytes, CODE);
    expect(Object.keys(files).sort()).toEqual([
      'comments.json',
      'entities.json',
      'modules.json',
      'portal.json',
      'status_timeline.json',
      'users.json',
      'work_items.json',
    ]);
    const portal = files['portal.json'];
    expect(portal.export).toMatchObject({ id: backup.id, attachment_needed: false });
    expect(portal.portal_details).toMatchObject({ id: Number(portalId), name: 'northwind' });

    const count = (sql: string) => (db.prepare(sql).get(Number(portalId)) as { n: number }).n;
    expect(files['users.json']).toHaveLength(
      count('SELECT COUNT(*) AS n FROM portal_users WHERE portal_id = ?'),
    );
    expect(JSON.stringify(files['users.json'])).not.toContain('password');
    expect(files['work_items.json']).toHaveLength(
      count('SELECT COUNT(*) AS n FROM work_items WHERE portal_id = ?'),
    );
    const entityCount = count(
      `SELECT COUNT(*) AS n FROM entities e JOIN modules m ON m.id = e.module_id
       WHERE m.portal_id = ?`,
    );
    expect(entityCount).toBeGreaterThan(0);
    expect(files['entities.json']).toHaveLength(entityCount);
    expect(files['comments.json']).toHaveLength(
      count(
        `SELECT COUNT(*) AS n FROM comments c JOIN entities e ON e.id = c.entity_id
         JOIN modules m ON m.id = e.module_id WHERE m.portal_id = ?`,
      ),
    );
    expect(files['status_timeline.json']).toHaveLength(
      count(
        `SELECT COUNT(*) AS n FROM status_timeline t JOIN entities e ON e.id = t.entity_id
         JOIN modules m ON m.id = e.module_id WHERE m.portal_id = ?`,
      ),
    );

    const entityIds = (files['entities.json'] as { id: string }[]).map((entity) =>
      Number(entity.id),
    );
    expect(entityIds).toEqual([...new Set(entityIds)].sort((a, b) => a - b));
    expect(entityCount).toBeGreaterThan(1000);

    const sample = files['entities.json'][1001] as Record<string, unknown>;
    const row = db.prepare('SELECT * FROM entities WHERE id = ?').get(Number(sample.id)) as Record<
      string,
      unknown
    >;
    expect(sample).toMatchObject({
      name: row.name,
      description: row.description,
      status: { id: String(row.status_id) },
      custom_fields: JSON.parse(row.custom as string),
      created_time: row.created_time,
    });

    const modules = files['modules.json'] as {
      api_name: string;
      fields: unknown[];
      layouts: { sections: { fields: unknown[] }[] }[];
      statuses: { transitions: unknown[] }[];
    }[];
    expect(modules).toHaveLength(count('SELECT COUNT(*) AS n FROM modules WHERE portal_id = ?'));
    const assets = modules.find((module) => module.api_name === 'assets')!;
    expect(assets.fields.length).toBeGreaterThan(17);
    expect(assets.layouts).toHaveLength(2);
    expect(assets.layouts[0]!.sections[0]!.fields.length).toBeGreaterThan(0);
    expect(assets.statuses).toHaveLength(5);
    expect(assets.statuses[0]!.transitions.length).toBeGreaterThan(0);
    for (const comment of files['comments.json']) expect(comment).not.toHaveProperty('attachments');

    // Built once, kept, and the access code is not kept after that.
    const stored = db
      .prepare('SELECT length(archive) AS size, access_code FROM exports WHERE id = ?')
      .get(Number(backup.id));
    expect(stored).toEqual({ size: bytes.length, access_code: '' });
    const again = await download(backup.download_url);
    expect(Buffer.from(again.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('holds the portal as it was when the backup completed, not as at its first download', async () => {
    const context = await setup();
    const done = await completedBackup(context);
    // The archive is built as soon as the backup is seen completed (a build takes a moment; a
    // change made while it runs can still slip in: the emulator has one connection, no snapshot).
    const built = () =>
      context.emulator.state.db
        .prepare('SELECT archive IS NOT NULL FROM exports WHERE id = ?')
        .pluck()
        .get(Number(done.id)) === 1;
    for (let i = 0; i < 200 && !built(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(built()).toBe(true);
    // After that, before the first download, a record is renamed.
    const entity = context.emulator.state.db
      .prepare(
        `SELECT e.id, e.name FROM entities e JOIN modules m ON m.id = e.module_id
         WHERE m.portal_id = ? AND e.trashed_time IS NULL ORDER BY e.id LIMIT 1`,
      )
      .get(Number(context.portalId)) as { id: number; name: string };
    context.emulator.state.db
      .prepare('UPDATE entities SET name = ? WHERE id = ?')
      .run('Renamed after the backup', entity.id);
    const { bytes } = await download(done.download_url);
    const files = await openArchive(bytes, CODE);
    const archived = (files['entities.json'] as { id: string; name: string }[]).find(
      (record) => record.id === String(entity.id),
    );
    expect(archived?.name).toBe(entity.name);
  });

  it('does not open with a wrong access code or without one', async () => {
    const context = await setup();
    const backup = await completedBackup(context);
    const { bytes } = await download(backup.download_url);
    await expect(openArchive(bytes, 'wrong code 123')).rejects.toThrow(/password/i);
    const reader = new ZipReader(new Uint8ArrayReader(bytes), { useWebWorkers: false });
    const [entry] = (await reader.getEntries()) as FileEntry[];
    await expect(entry!.getData(new TextWriter())).rejects.toThrow(/encrypted/i);
  });

  it('lists comment attachments when attachment_needed is true', async () => {
    const context = await setup();
    const { db } = context.emulator.state;
    const comment = db
      .prepare(
        `SELECT c.id FROM comments c JOIN entities e ON e.id = c.entity_id
         JOIN modules m ON m.id = e.module_id WHERE m.portal_id = ? ORDER BY c.id`,
      )
      .get(Number(context.portalId)) as { id: number };
    db.prepare('UPDATE comments SET attachments = ? WHERE id = ?').run(
      JSON.stringify([{ attachment_id: '777' }]),
      comment.id,
    );
    const backup = await completedBackup(context, true);
    const files = await openArchive((await download(backup.download_url)).bytes, CODE);
    expect(files['portal.json'].export).toMatchObject({ attachment_needed: true });
    const comments = files['comments.json'] as { id: string; attachments: unknown }[];
    expect(comments.find((entry) => entry.id === String(comment.id))?.attachments).toEqual([
      { attachment_id: '777' },
    ]);
    for (const entry of comments) expect(Array.isArray(entry.attachments)).toBe(true);
  });

  it('is not served before completion, for an unknown key, or by another data center', async () => {
    const context = await setup({ dcs: ['us', 'eu'] });
    const { schedule, emulator, status } = context;
    const scheduled = await schedule({ access_code: CODE });
    const key = (
      emulator.state.db.prepare('SELECT download_key FROM exports').get() as {
        download_key: string;
      }
    ).download_key;
    const url = (origin: string, name = `${key}.zip`) => `${origin}/__downloads/${name}`;
    expect((await fetch(url(emulator.dcs.us!.api))).status).toBe(404);
    emulator.state.clock.advance(GENERATION_MS);
    const done = await status(scheduled.body.portal_export.id);
    expect(done.body.portal_export.download_url).toBe(url(emulator.dcs.us!.api));
    expect((await fetch(url(emulator.dcs.us!.api))).status).toBe(200);
    expect((await fetch(url(emulator.dcs.eu!.api))).status).toBe(404);
    const wrongKey = await fetch(url(emulator.dcs.us!.api, `${'A'.repeat(32)}.zip`));
    expect(wrongKey.status).toBe(404);
    expect(((await wrongKey.json()) as { errorCode: string }).errorCode).toBe('RESOURCE_NOT_FOUND');
    expect((await fetch(url(emulator.dcs.us!.api, key))).status).toBe(404);
  });
});
