/**
 * A percent-encoded URL path segment as text, or null when its `%`-escapes are malformed (`%zz`,
 * a lone `%`, bytes that are not UTF-8). `decodeURIComponent` throws on those; a server must
 * answer them as the client's mistake (400), never as its own failure.
 */
export function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
