import { useState } from 'react';

/**
 * Copies text to the clipboard and says how it went. `noteFor(text)` is the note of the last copy
 * of that very text (null otherwise), so the note goes away once the text on screen is another.
 */
export function useCopy(notes: { copied: string; refused: string }) {
  const [last, setLast] = useState<{ text: string; note: string } | null>(null);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setLast({ text, note: notes.copied });
    } catch {
      setLast({ text, note: notes.refused });
    }
  };
  const noteFor = (text: string | undefined) =>
    last !== null && last.text === text ? last.note : null;
  return { copy, noteFor };
}
