/**
 * The `DecompressionStream` zip.js inflates archive entries with (its `configure()` option of
 * that name, "the stream implementation used to decompress data when `useCompressionStream` is
 * `true`"): the same zlib streams Node's own `DecompressionStream` is made of (`createGunzip()`,
 * `createInflateRaw()`, `createInflate()`, turned into web streams by `Duplex.toWeb`), with one
 * difference: zlib's output comes in 256 KiB chunks instead of its default 16 KiB. Every chunk
 * is a round trip between zlib's thread and the main thread plus a pass through half a dozen
 * web-stream stages; with 16 KiB chunks that per-chunk work (zlib's `write` on the main thread,
 * the main thread idle waiting for it) was about a quarter of a verification's time
 * (bench:backup's profile). Checks are unchanged: zip.js still wraps each entry in a gzip header
 * and trailer so zlib checks its CRC-32 and size, and its AES code is checked by zip.js as
 * before. (Node 26.5 and later make their own gzip `DecompressionStream` refuse bytes after the
 * first gzip member; zip.js's wrapping writes exactly one, so that makes no difference here.)
 */
import { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import { configure } from '@zip.js/zip.js';

/** Ours: the size of zlib's output chunks (Node's default is 16 KiB). */
export const INFLATE_CHUNK_BYTES = 256 * 1024;

type WebPair = ReturnType<typeof Duplex.toWeb>;

export class LargeChunkDecompressionStream {
  readonly readable: WebPair['readable'];
  readonly writable: WebPair['writable'];

  constructor(format: string) {
    const options = { chunkSize: INFLATE_CHUNK_BYTES };
    let pair: WebPair;
    switch (format) {
      case 'gzip':
        pair = Duplex.toWeb(zlib.createGunzip(options));
        break;
      case 'deflate-raw':
        pair = Duplex.toWeb(zlib.createInflateRaw(options));
        break;
      case 'deflate':
        pair = Duplex.toWeb(zlib.createInflate(options));
        break;
      default:
        // Anything else is the platform's to accept or refuse (zip.js probes formats this way).
        pair = new (DecompressionStream as unknown as new (format: string) => WebPair)(format);
    }
    this.readable = pair.readable;
    this.writable = pair.writable;
  }
}

let configured = false;

/** Makes zip.js inflate with {@link LargeChunkDecompressionStream}; once per process. */
export function useLargeInflateChunks(): void {
  if (configured) return;
  configure({
    DecompressionStream: LargeChunkDecompressionStream as unknown as NonNullable<
      Parameters<typeof configure>[0]['DecompressionStream']
    >,
  });
  configured = true;
}
