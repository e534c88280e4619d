/**
 * Ours: how deeply the engine's HTTP servers let a JSON body nest. V8's JSON.parse slows down
 * sharply with depth (a 1 MiB body of nested arrays held the engine for about a second) while no
 * request or event PortalDesk knows nests more than a few dozen levels.
 */
export const MAX_JSON_NESTING = 256;

/**
 * True when the JSON text opens more than `limit` arrays or objects inside each other. A linear
 * scan, run before JSON.parse; brackets inside strings do not count. Malformed text is left to
 * JSON.parse to refuse.
 */
export function jsonNestingExceeds(text: string, limit = MAX_JSON_NESTING): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}
