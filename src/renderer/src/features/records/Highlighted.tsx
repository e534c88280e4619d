import type { HighlightPart } from '../../../../shared/ipc/areas/records';

/** Text with the search's matched words marked; record text is never read as markup. */
export function Highlighted({ parts }: { parts: readonly HighlightPart[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.highlighted ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
      )}
    </>
  );
}
