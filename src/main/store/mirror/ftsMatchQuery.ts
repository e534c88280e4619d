/**
 * What a person types into the search box, as an FTS5 MATCH expression: every word must occur,
 * each as a prefix ("Leno think" finds "Lenovo ThinkPad"). Words are runs of letters, marks and
 * digits, as the unicode61 tokenizer splits them, so nothing typed can be read as FTS5 syntax.
 * Pure.
 */

/** Words beyond this are ignored: a pasted paragraph must not become a huge query. */
export const MAX_SEARCH_WORDS = 16;

export function ftsMatchQuery(text: string): string | null {
  const words = text.normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words
    .slice(0, MAX_SEARCH_WORDS)
    .map((word) => `"${word}"*`)
    .join(' ');
}
