/**
 * Search snippets: FTS5's highlight()/snippet() mark the matched words with these two control
 * characters (which record text practically never holds), and the UI gets the text cut into
 * plain and highlighted parts, so no markup from record text is ever interpreted. Pure.
 */

export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_END = '\u0003';

export interface HighlightPart {
  text: string;
  highlighted: boolean;
}

export function highlightParts(marked: string | null): HighlightPart[] {
  if (marked === null || marked === '') return [];
  const parts: HighlightPart[] = [];
  const push = (text: string, highlighted: boolean) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.highlighted === highlighted) last.text += text;
    else parts.push({ text, highlighted });
  };
  let highlighted = false;
  let current = '';
  for (const char of marked) {
    if (char === HIGHLIGHT_START || char === HIGHLIGHT_END) {
      push(current, highlighted);
      current = '';
      highlighted = char === HIGHLIGHT_START;
    } else {
      current += char;
    }
  }
  push(current, highlighted);
  return parts;
}
