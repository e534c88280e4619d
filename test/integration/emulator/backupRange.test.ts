import { get, type IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKUP_REUSE_MS, GENERATION_MS } from '@portaldesk/emulator/backup/exportRules';
import { api, grantToken, testEmulator } from '../../support/emulator';

const CODE = 'correct horse battery';
const ETAG = /^"\d+-[0-9a-f]{16}"$/;

/** An emulator with one completed backup, downloaded once as a whole. */
async function downloadedBackup() {
  const emulator = await testEmulator();
  const base = emulator.dcs.us!.api;
  const token = grantToken(emulator, { lifetimeMs: 10 * BACKUP_REUSE_MS });
  const prefix = `/api/v3/portal/${emulator.portals[0]!}`;
  const scheduled = await fetch(`${base}${prefix}/portal_export`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: new URLSearchParams({ access_code: CODE }),
  });
  expect(scheduled.status).toBe(202);
  const { portal_export: started } = (await scheduled.json()) as { portal_export: { id: string } };
  emulator.state.clock.advance(GENERATION_MS);
  const status = await api(base, token, 'GET', `${prefix}/portal_export/${started.id}/status`);
  const url = status.body.portal_export.download_url as string;
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const whole = Buffer.from(await response.arrayBuffer());
  const admin = { 'X-Emulator-Admin': emulator.adminSecret };
  const setFaults = async (faults: unknown[]) => {
    const reply = await api(base, undefined, 'POST', '/__emulator/faults', { faults }, admin);
    expect(reply.status).toBe(200);
    return reply.body as { faults: unknown[] };
  };
  return { emulator, base, url, exportId: started.id, response, whole, setFaults };
}

/** A ranged GET through fetch: status, headers and the bytes. */
async function ranged(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * A GET on its own connection with node:http, which hands over every byte that arrived even when
 * the connection is destroyed mid-body (`complete` is then false).
 */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A truncated body is an 'error' ("aborted") on the response, and then 'close'.
      response.on('error', () => undefined);
      response.on('close', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          bytes: Buffer.concat(chunks),
          complete: response.complete,
        }),
      );
    });
    request.on('error', reject);
  });
}

describe('backup download: byte ranges', () => {
  it('announces ranges, a strong ETag and the length, the same on every download', async () => {
    const { url, exportId, response, whole } = await downloadedBackup();
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe(String(whole.length));
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(ETAG);
    expect(etag.startsWith(`"${exportId}-`)).toBe(true);
    const again = await ranged(url, {});
    expect(again.response.status).toBe(200);
    expect(again.response.headers.get('etag')).toBe(etag);
    expect(again.bytes.equals(whole)).toBe(true);
  });

  it('gives back the whole file as the concatenation of ranges at random split points', async () => {
    const { url, response, whole } = await downloadedBackup();
    const total = whole.length;
    const etag = response.headers.get('etag')!;
    expect(total).toBeGreaterThan(100);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: total - 1 }), { maxLength: 4 }),
        fc.constantFrom('open', 'suffix', 'closed'),
        fc.boolean(),
        async (points, lastForm, withIfRange) => {
          const starts = [0, ...points.sort((a, b) => a - b)];
          const parts: Buffer[] = [];
          for (const [index, start] of starts.entries()) {
            const end = (starts[index + 1] ?? total) - 1;
            const last = index === starts.length - 1;
            const spec =
              last && lastForm === 'open'
                ? `${start}-`
                : last && lastForm === 'suffix'
                  ? `-${total - start}`
                  : `${start}-${end}`;
            const headers: Record<string, string> = { Range: `bytes=${spec}` };
            if (withIfRange) headers['If-Range'] = etag;
            const { response: part, bytes } = await ranged(url, headers);
            expect(part.status, spec).toBe(206);
            expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${total}`);
            expect(part.headers.get('content-length')).toBe(String(end - start + 1));
            expect(part.headers.get('content-type')).toBe('application/zip');
            expect(part.headers.get('etag')).toBe(etag);
            expect(part.headers.get('accept-ranges')).toBe('bytes');
            expect(bytes.length).toBe(end - start + 1);
            parts.push(bytes);
          }
          expect(Buffer.concat(parts).equals(whole)).toBe(true);
        },
      ),
      { numRuns: 8 },
    );
  });

  it('serves suffix ranges, clamped to the file', async () => {
    const { url, whole } = await downloadedBackup();
    const total = whole.length;
    const tail = await ranged(url, { Range: 'bytes=-100' });
    expect(tail.response.status).toBe(206);
    expect(tail.response.headers.get('content-range')).toBe(
      `bytes ${total - 100}-${total - 1}/${total}`,
    );
    expect(tail.bytes.equals(whole.subarray(total - 100))).toBe(true);

    const longer = await ranged(url, { Range: `bytes=-${total + 50}` });
    expect(longer.response.status).toBe(206);
    expect(longer.response.headers.get('content-range')).toBe(`bytes 0-${total - 1}/${total}`);
    expect(longer.bytes.equals(whole)).toBe(true);

    const clamped = await ranged(url, { Range: `bytes=${total - 10}-${total * 2}` });
    expect(clamped.response.status).toBe(206);
    expect(clamped.bytes.equals(whole.subarray(total - 10))).toBe(true);
  });

  it('answers 416 with the size for a range past the end', async () => {
    const { url, whole, response } = await downloadedBackup();
    const total = whole.length;
    for (const range of [`bytes=${total}-`, `bytes=${total + 5}-${total + 10}`, 'bytes=-0']) {
      const reply = await ranged(url, { Range: range });
      expect(reply.response.status, range).toBe(416);
      expect(reply.response.headers.get('content-range')).toBe(`bytes */${total}`);
      expect(reply.response.headers.get('etag')).toBe(response.headers.get('etag'));
      expect(JSON.parse(reply.bytes.toString('utf8'))).toMatchObject({ status: 416 });
    }
  });

  it('ignores several ranges, another unit and malformed headers: 200 with the whole file', async () => {
    const { url, whole } = await downloadedBackup();
    for (const range of [
      'bytes=0-9,20-29',
      'bytes=0-9, 5-',
      'bytes=9-0',
      'bytes=abc',
      'bytes=1-2-3',
      'items=0-9',
      'bytes 0-9',
    ]) {
      const reply = await ranged(url, { Range: range });
      expect(reply.response.status, range).toBe(200);
      expect(reply.response.headers.get('content-range'), range).toBeNull();
      expect(reply.bytes.equals(whole), range).toBe(true);
    }
  });

  it('honours If-Range only with the current strong ETag', async () => {
    const { url, whole, response } = await downloadedBackup();
    const etag = response.headers.get('etag')!;
    const matching = await ranged(url, { Range: 'bytes=0-9', 'If-Range': etag });
    expect(matching.response.status).toBe(206);
    expect(matching.bytes.equals(whole.subarray(0, 10))).toBe(true);
    for (const ifRange of [
      '"1-0000000000000000"',
      `W/${etag}`,
      new Date().toUTCString(),
      etag.slice(0, -2) + '"',
    ]) {
      const reply = await ranged(url, { Range: 'bytes=0-9', 'If-Range': ifRange });
      expect(reply.response.status, ifRange).toBe(200);
      expect(reply.bytes.equals(whole), ifRange).toBe(true);
    }
    // A mismatching If-Range wins over an unsatisfiable range too.
    const past = await ranged(url, { Range: `bytes=${whole.length}-`, 'If-Range': '"other"' });
    expect(past.response.status).toBe(200);
  });
});

describe('backup download: the cutBody fault', () => {
  it('sends half of the body under the full Content-Length; a Range request completes it', async () => {
    const { url, whole, response, setFaults } = await downloadedBackup();
    const etag = response.headers.get('etag')!;
    const total = whole.length;
    const set = await setFaults([{ path: '^/__downloads/', cutBody: 1 }]);
    expect(set.faults).toEqual([
      {
        path: '^/__downloads/',
        cutBody: 1,
        error500: 0,
        error429: 0,
        reset: 0,
        dropAnswer: 0,
        latencyMs: 0,
      },
    ]);

    const cut = await rawGet(url);
    expect(cut.status).toBe(200);
    expect(cut.headers['content-length']).toBe(String(total));
    expect(cut.complete).toBe(false);
    expect(cut.bytes.length).toBe(Math.floor(total / 2));
    expect(cut.bytes.length).toBeLessThan(total);
    expect(cut.bytes.equals(whole.subarray(0, cut.bytes.length))).toBe(true);

    // A 206 is cut to half of its range.
    const cutRange = await rawGet(url, { Range: 'bytes=100-1099' });
    expect(cutRange.status).toBe(206);
    expect(cutRange.headers['content-length']).toBe('1000');
    expect(cutRange.complete).toBe(false);
    expect(cutRange.bytes.equals(whole.subarray(100, 600))).toBe(true);

    // Resumed once the fault is gone: the two parts are the file, byte for byte.
    await setFaults([]);
    const rest = await rawGet(url, { Range: `bytes=${cut.bytes.length}-`, 'If-Range': etag });
    expect(rest.status).toBe(206);
    expect(rest.complete).toBe(true);
    expect(rest.headers['content-range']).toBe(`bytes ${cut.bytes.length}-${total - 1}/${total}`);
    expect(Buffer.concat([cut.bytes, rest.bytes]).equals(whole)).toBe(true);
  });

  it('drops a JSON answer as dropAnswer does, and leaves other paths alone', async () => {
    const { base, url, whole, setFaults } = await downloadedBackup();
    await setFaults([{ path: '^/__downloads/', cutBody: 1 }]);
    // An unknown key is a JSON 404, and a range past the end a JSON 416: no answer at all.
    const missing = `${base}/__downloads/${'A'.repeat(32)}.zip`;
    await expect(fetch(missing)).rejects.toThrow();
    const past = await rawGet(url, { Range: `bytes=${whole.length}-` }).catch(
      (error: Error) => error,
    );
    expect(past).toBeInstanceOf(Error);
    expect((await api(base, undefined, 'GET', '/api/v3/nothing')).status).toBe(400);
  });

  it('is refused outside 0..1', async () => {
    const { emulator, base } = await downloadedBackup();
    const reply = await api(
      base,
      undefined,
      'POST',
      '/__emulator/faults',
      { faults: [{ path: 'x', cutBody: 2 }] },
      { 'X-Emulator-Admin': emulator.adminSecret },
    );
    expect(reply.status).toBe(400);
  });
});
