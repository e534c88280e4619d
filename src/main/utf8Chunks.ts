/**
 * UTF-8 text from a stream of byte chunks, refusing invalid bytes, as TextDecoder with `fatal`
 * does, but through Node's native checks: TextDecoder's streaming mode took a third of a
 * verification's time (bench:backup's profile). A sequence split between chunks waits for the
 * rest of it; bytes that are not UTF-8 anywhere, or a sequence cut off at the end, throw.
 */
import { Buffer, isUtf8 } from 'node:buffer';

export class Utf8Error extends TypeError {
  override name = 'Utf8Error';
}

/** Where the last complete sequence ends: a lead byte in the last 3 bytes may want more. */
export function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const byte = bytes[n - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  // Only continuation bytes at the end: whatever they are, the check below judges them.
  return n;
}

export class Utf8Chunks {
  private pending: Buffer = Buffer.alloc(0);

  decode(chunk: Uint8Array): string {
    const bytes =
      this.pending.length > 0
        ? Buffer.concat([this.pending, chunk])
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const cut = completeLength(bytes);
    // The tail is at most 3 bytes: copied, so the chunk it came from can be let go.
    this.pending = Buffer.from(bytes.subarray(cut));
    const body = bytes.subarray(0, cut);
    if (!isUtf8(body)) throw new Utf8Error('The text is not valid UTF-8.');
    return body.toString('utf8');
  }

  /** The end of the stream: a sequence left incomplete is an error. */
  end(): string {
    if (this.pending.length > 0) {
      throw new Utf8Error('The text ends in the middle of a UTF-8 character.');
    }
    return '';
  }
}
