/**
 * One download attempt against a local server: whole, resumed with Range, restarted when the
 * server ignores the range, a link that is gone, a cut body, and a full disk (/dev/full).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  downloadAttempt,
  DownloadFailure,
  writeAll,
} from '../../../src/main/backups/archiveDownload';
import { tempDir } from '../../support/tempDir';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

const FILE = randomBytes(3 * 1024 * 1024 + 17);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Serves FILE; `ranges` honours `bytes=a-`; `cut` sends half and destroys the socket. */
async function serve(options: { ranges?: boolean; cut?: boolean; status?: number } = {}) {
  const seen: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers.range);
    if (options.status) return void response.writeHead(options.status).end();
    const match = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = options.ranges && match ? Number(match[1]) : 0;
    const body = FILE.subarray(start);
    response.writeHead(start > 0 ? 206 : 200, {
      'Content-Length': String(body.length),
      ETag: '"v1"',
      ...(start > 0 ? { 'Content-Range': `bytes ${start}-${FILE.length - 1}/${FILE.length}` } : {}),
    });
    if (options.cut) response.write(body.subarray(0, body.length >> 1), () => response.destroy());
    else response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/file.zip`;
  return { url, seen };
}

const attempt = (url: string, part: string, etag: string | null = null) =>
  downloadAttempt({
    url,
    part,
    etag,
    send: ({ headers, signal }) => fetch(url, { headers, signal }),
  });

describe('a download attempt', () => {
  it('downloads a file whole, hashing what it writes', async () => {
    const { url, seen } = await serve();
    const part = path.join(tempDir(), 'a.zip.part');
    const done = await attempt(url, part);
    expect(done).toMatchObject({
      bytes: FILE.length,
      sha256: sha(FILE),
      etag: '"v1"',
      resumed: false,
    });
    expect(sha(readFileSync(part))).toBe(sha(FILE));
    expect(seen).toEqual([undefined]);
  });

  it('resumes from what the file holds, with Range and If-Range', async () => {
    const { url, seen } = await serve({ ranges: true });
    const part = path.join(tempDir(), 'b.zip.part');
    writeFileSync(part, FILE.subarray(0, 1_000_001));
    const done = await attempt(url, part, '"v1"');
    expect(done).toMatchObject({ bytes: FILE.length, sha256: sha(FILE), resumed: true });
    expect(seen).toEqual(['bytes=1000001-']);
    expect(sha(readFileSync(part))).toBe(sha(FILE));
  });

  it('starts over when the server sends the whole file instead', async () => {
    const { url } = await serve({ ranges: false });
    const part = path.join(tempDir(), 'c.zip.part');
    writeFileSync(part, Buffer.from('stale bytes of another file'));
    const done = await attempt(url, part, '"old"');
    expect(done).toMatchObject({ bytes: FILE.length, sha256: sha(FILE), resumed: false });
    expect(sha(readFileSync(part))).toBe(sha(FILE));
  });

  it('appends nothing when a server that ignores If-Range holds another version now', async () => {
    // serve() honours Range but never If-Range, and its file is "v1": the bytes held are of "v0".
    const { url, seen } = await serve({ ranges: true });
    const part = path.join(tempDir(), 'v0.zip.part');
    const held = randomBytes(1_000_001);
    writeFileSync(part, held);
    const failure = await attempt(url, part, '"v0"').catch((error: unknown) => error);
    expect(seen).toEqual(['bytes=1000001-']);
    expect(failure).toBeInstanceOf(DownloadFailure);
    expect((failure as DownloadFailure).kind).toBe('protocol');
    expect((failure as DownloadFailure).message).toMatch(/another version of the file/);
    expect(readFileSync(part).equals(held)).toBe(true);
  });

  it('keeps what is held when the server answers 503 (restarting), as a cut, not a protocol fault', async () => {
    const { url } = await serve({ status: 503 });
    const part = path.join(tempDir(), 'busy.zip.part');
    const held = FILE.subarray(0, 1_000_001);
    writeFileSync(part, held);
    const failure = await attempt(url, part, '"v1"').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DownloadFailure);
    // The job drops the partial file on a protocol fault and keeps it on a network one.
    expect((failure as DownloadFailure).kind).toBe('network');
    expect(readFileSync(part).equals(held)).toBe(true);
  });

  it('keeps what arrived before a cut, so the next attempt resumes from it', async () => {
    const cut = await serve({ cut: true });
    const part = path.join(tempDir(), 'd.zip.part');
    const failure = await attempt(cut.url, part).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DownloadFailure);
    expect((failure as DownloadFailure).kind).toBe('network');
    const held = readFileSync(part);
    expect(held.length).toBeGreaterThan(0);
    expect(Buffer.compare(held, FILE.subarray(0, held.length))).toBe(0);
    const whole = await serve({ ranges: true });
    const done = await attempt(whole.url, part, '"v1"');
    expect(done).toMatchObject({ sha256: sha(FILE), resumed: true });
  });

  it('gives up on a body that stalls, keeping what arrived', async () => {
    const stalls: Server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Length': String(FILE.length) });
      response.write(FILE.subarray(0, 4096));
      // ...and nothing more until the test's server is closed.
    });
    await new Promise<void>((resolve) => stalls.listen(0, '127.0.0.1', resolve));
    servers.push(stalls);
    stalls.on('connection', (socket) => stalls.once('close', () => socket.destroy()));
    const url = `http://127.0.0.1:${(stalls.address() as AddressInfo).port}/`;
    const part = path.join(tempDir(), 'f.zip.part');
    const failure = (await downloadAttempt({
      url,
      part,
      etag: null,
      idleTimeoutMs: 300,
      send: ({ headers, signal }) => fetch(url, { headers, signal }),
    }).catch((error: unknown) => error)) as DownloadFailure;
    expect(failure).toBeInstanceOf(DownloadFailure);
    expect(failure.kind).toBe('network');
    expect(failure.message).toMatch(/no data for 0.3 s/);
    expect(readFileSync(part).length).toBe(4096);
    stalls.closeAllConnections();
  });

  it('stops a body that runs past the length the server announced', async () => {
    const liar: Server = createServer((_request, response) => {
      // Announces 1,000 bytes and sends the whole file, chunked.
      response.writeHead(206, {
        'Content-Range': `bytes 0-999/1000`,
        'Transfer-Encoding': 'chunked',
      });
      response.end(FILE);
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    servers.push(liar);
    const url = `http://127.0.0.1:${(liar.address() as AddressInfo).port}/`;
    const part = path.join(tempDir(), 'g.zip.part');
    writeFileSync(part, Buffer.alloc(0));
    const failure = (await attempt(url, part).catch((error: unknown) => error)) as DownloadFailure;
    expect(failure).toBeInstanceOf(DownloadFailure);
    expect(failure.kind).toBe('protocol');
    expect(failure.message).toMatch(/more than the 1000 bytes it announced/);
  });

  it('does not count time queued in the request scheduler as a stall', async () => {
    const { url } = await serve();
    const part = path.join(tempDir(), 'h.zip.part');
    const done = await downloadAttempt({
      url,
      part,
      etag: null,
      idleTimeoutMs: 200,
      // The scheduler holds the request for longer than the idle timeout, then lets it go.
      send: async ({ headers, signal, released }) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        released();
        return fetch(url, { headers, signal });
      },
    });
    expect(done.sha256).toBe(sha(FILE));
  });

  it('says a link is gone on 404, and never creates the file', async () => {
    const { url } = await serve({ status: 404 });
    const part = path.join(tempDir(), 'e.zip.part');
    const failure = (await attempt(url, part).catch((error: unknown) => error)) as DownloadFailure;
    expect(failure.kind).toBe('link_gone');
    expect(existsSync(part)).toBe(false);
  });

  it.runIf(existsSync('/dev/full'))('says the disk is full in words', async () => {
    const { url } = await serve();
    // /dev/full accepts an open and refuses every write with ENOSPC; nothing is deleted here.
    const failure = (await attempt(url, '/dev/full').catch(
      (error: unknown) => error,
    )) as DownloadFailure;
    expect(failure).toBeInstanceOf(DownloadFailure);
    expect(failure.kind).toBe('disk');
    expect(failure.message).toMatch(/The disk is full.*earlier backups are untouched/);
  });
});

describe('writing a batch of chunks', () => {
  /** A file handle whose writev writes at most `most` bytes a call (a disk nearly full). */
  const shortWriter = (most: number) => {
    const written: number[] = [];
    let calls = 0;
    const handle = {
      writev(chunks: Uint8Array[]) {
        calls++;
        let bytesWritten = 0;
        for (const chunk of chunks) {
          for (const byte of chunk) {
            if (bytesWritten === most) return Promise.resolve({ bytesWritten });
            written.push(byte);
            bytesWritten++;
          }
        }
        return Promise.resolve({ bytesWritten });
      },
    };
    return {
      handle: handle as unknown as Parameters<typeof writeAll>[0],
      written,
      calls: () => calls,
    };
  };

  it('writes again what a short write left, in order, without losing or repeating a byte', async () => {
    const chunks = [randomBytes(5), randomBytes(1), randomBytes(13), randomBytes(7)];
    const bytes = Buffer.concat(chunks);
    for (const most of [1, 3, 5, 6, 12, 25, 26, 100]) {
      const { handle, written, calls } = shortWriter(most);
      await writeAll(handle, chunks, bytes.length);
      expect(Buffer.from(written)).toEqual(bytes);
      expect(calls()).toBe(Math.ceil(bytes.length / most));
    }
  });

  it('fails with EIO when nothing is written', async () => {
    const { handle } = shortWriter(0);
    await expect(writeAll(handle, [randomBytes(4)], 4)).rejects.toMatchObject({ code: 'EIO' });
  });
});

describe('a download attempt stopped by its signal', () => {
  /** A body that sends a few bytes and then nothing, ignoring the request's signal. */
  const stalled = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array([1, 2, 3]));
        },
        pull: () => new Promise<void>(() => undefined),
      }),
      { status: 200, headers: { 'Content-Length': '1000', ETag: '"v1"' } },
    );

  // The user's Cancel (or the app closing) may come at any moment: here while the partial file
  // was being opened, before the body's reading began (the first progress is said between the
  // two). It was missed there, and the attempt waited on the stalled body for good.
  it('stops when aborted before the body is read, as when aborted during it', async () => {
    for (const when of ['before reading', 'while reading'] as const) {
      const stop = new AbortController();
      const part = path.join(tempDir(), 'a.zip.part');
      const outcome = downloadAttempt({
        url: 'http://127.0.0.1:9/never',
        part,
        etag: null,
        signal: stop.signal,
        idleTimeoutMs: 60_000,
        send: async () => stalled(),
        onProgress: ({ bytes }) => {
          if (when === 'before reading' || bytes > 0) stop.abort(new Error('cancelled'));
        },
      });
      const settled = await Promise.race([
        outcome.then(
          () => 'downloaded',
          (error: unknown) => (error instanceof DownloadFailure ? error.kind : String(error)),
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000)),
      ]);
      expect(settled, when).toBe('network');
    }
  });

  it('does not start when its signal was aborted before it began', async () => {
    const stop = new AbortController();
    stop.abort(new Error('cancelled'));
    let sent = 0;
    const outcome = downloadAttempt({
      url: 'http://127.0.0.1:9/never',
      part: path.join(tempDir(), 'b.zip.part'),
      etag: null,
      signal: stop.signal,
      idleTimeoutMs: 60_000,
      send: async () => {
        sent++;
        return stalled();
      },
    });
    const settled = await Promise.race([
      outcome.then(
        () => 'downloaded',
        () => 'refused',
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000)),
    ]);
    expect(settled).toBe('refused');
    expect(sent).toBe(0);
  });
});
