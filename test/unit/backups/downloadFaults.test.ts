/**
 * A download through any sequence of server faults ends in the server's archive or in nothing:
 * cut bodies, wrong lengths, 416, a link that is gone, a server restarting (503), a server that
 * now holds another version (answering If-Range properly or ignoring it), the whole file as a
 * 206, a Range ignored. Each attempt is downloadAttempt on a real temporary file; between
 * attempts the job's rules apply (backupJob.ts: a protocol failure drops the partial file and its
 * ETag, a cut or a server restarting keeps both, a link that is gone ends the download). Whenever an attempt reports the file complete, the file
 * holds exactly one version the server had, whole, and the reported SHA-256 and size are its.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downloadAttempt, DownloadFailure } from '../../../src/main/backups/archiveDownload';
import { tempDir } from '../../support/tempDir';

type Fault =
  | { kind: 'ok' }
  | { kind: 'cut'; at: number }
  | { kind: 'short'; by: number }
  | { kind: 'long'; by: number }
  | { kind: 'ignoreIfRange' }
  | { kind: 'ignoreRange' }
  | { kind: 'whole206' }
  | { kind: 'unsatisfiable' }
  | { kind: 'gone' }
  | { kind: 'unavailable' };

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant({ kind: 'ok' as const }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat({ max: 5000 }) }),
  fc.record({ kind: fc.constant('short' as const), by: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ kind: fc.constant('long' as const), by: fc.integer({ min: 1, max: 50 }) }),
  fc.constant({ kind: 'ignoreIfRange' as const }),
  fc.constant({ kind: 'ignoreRange' as const }),
  fc.constant({ kind: 'whole206' as const }),
  fc.constant({ kind: 'unsatisfiable' as const }),
  fc.constant({ kind: 'gone' as const }),
  fc.constant({ kind: 'unavailable' as const }),
);

/** One request's answer: the server may first move on to its next version, then the fault. */
interface Answer {
  switched: boolean;
  fault: Fault;
}
const answerArb: fc.Arbitrary<Answer> = fc.record({ switched: fc.boolean(), fault: faultArb });

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function version(n: number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + n * 101 + (i >> 8)) & 0xff;
  return bytes;
}

/** A body that sends `bytes` and then fails like a cut connection. */
function cutBody(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
    },
    pull(controller) {
      controller.error(new TypeError('terminated'));
    },
  });
}

/** The server: its current version, answering each request as the next fault says. */
function server(sizes: number[], answers: Answer[]) {
  const versions = sizes.map((size, n) => version(n, size));
  let current = 0;
  let request = 0;
  const etagOf = (n: number) => `"v${n}"`;
  const send = async ({ headers }: { headers: Record<string, string> }): Promise<Response> => {
    const { switched, fault } = answers[request++] ?? { switched: false, fault: { kind: 'ok' } };
    if (switched && current < versions.length - 1) current++;
    const file = versions[current]!;
    const etag = etagOf(current);
    if (fault.kind === 'gone') return new Response('gone', { status: 404 });
    if (fault.kind === 'unavailable') return new Response('restarting', { status: 503 });
    const match = /^bytes=(\d+)-$/.exec(headers.Range ?? '');
    const ifRange = headers['If-Range'];
    let start = match ? Number(match[1]) : 0;
    if (
      fault.kind === 'ignoreRange' ||
      (ifRange !== undefined && ifRange !== etag && fault.kind !== 'ignoreIfRange')
    )
      start = 0;
    if (fault.kind === 'whole206') start = 0;
    if (fault.kind === 'unsatisfiable' || (start >= file.length && start > 0)) {
      return new Response(null, {
        status: 416,
        headers: { 'Content-Range': `bytes */${file.length}`, ETag: etag },
      });
    }
    const partial = start > 0 || fault.kind === 'whole206';
    let body: Uint8Array = file.subarray(start);
    const length = body.length;
    if (fault.kind === 'short') body = body.subarray(0, Math.max(0, body.length - fault.by));
    if (fault.kind === 'long') body = Buffer.concat([body, Buffer.alloc(fault.by, 7)]);
    const stream =
      fault.kind === 'cut'
        ? cutBody(body.subarray(0, Math.min(fault.at, body.length)))
        : new Blob([body]).stream();
    return new Response(stream, {
      status: partial ? 206 : 200,
      headers: {
        'Content-Length': String(length),
        ETag: etag,
        ...(partial ? { 'Content-Range': `bytes ${start}-${file.length - 1}/${file.length}` } : {}),
      },
    });
  };
  return { versions, send };
}

describe('a download through any faults', () => {
  it('ends in one whole version the server held, or in nothing', async () => {
    const folder = tempDir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 6000 }), { minLength: 1, maxLength: 3 }),
        fc.array(answerArb, { maxLength: 12 }),
        async (sizes, answers) => {
          const { versions, send } = server(sizes, answers);
          const part = path.join(folder, `${run++}.zip.part`);
          let etag: string | null = null;
          for (let attempt = 0; attempt < 40; attempt++) {
            try {
              const done = await downloadAttempt({
                url: 'http://backup.test/a.zip',
                part,
                etag,
                send,
                // As the job keeps it: the validator of the bytes held, from the last answer.
                onProgress: (progress) => {
                  etag = progress.etag ?? etag;
                },
              });
              const held = readFileSync(part);
              expect(versions.map(sha)).toContain(sha(held));
              expect(done.sha256).toBe(sha(held));
              expect(done.bytes).toBe(held.length);
              return;
            } catch (error) {
              if (!(error instanceof DownloadFailure)) throw error;
              if (error.kind === 'link_gone') {
                rmSync(part, { force: true });
                return;
              }
              // A cut keeps what arrived and its ETag; a protocol failure drops both.
              if (error.kind === 'protocol') {
                rmSync(part, { force: true });
                etag = null;
              }
            }
          }
          throw new Error('never finished');
        },
      ),
      { numRuns: 300 },
    );
  });
});
