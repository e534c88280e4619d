import { useEffect, useRef } from 'react';
import { copyToClipboard } from './copyToClipboard';
import { useRecords } from './RecordsContext';
import { selectedCount } from './rowSelection';

/** Copy, with what it did beside it (an error in words, with the focus moved there). */
export function CopyRows() {
  const selected = useRecords((s) => selectedCount(s.selection, s.total ?? 0));
  const copied = useRecords((s) => s.copied);
  const copying = useRecords((s) => s.copying);
  const copySelection = useRecords((s) => s.copySelection);
  const errorRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (copied?.error) errorRef.current?.focus();
  }, [copied]);
  return (
    <>
      <button
        type="button"
        onClick={() => void copySelection(copyToClipboard)}
        disabled={selected === 0 || copying}
        title="Copy the selected rows as the table shows them, tab-separated with a header row (Ctrl+C)"
      >
        {copying ? 'Copying…' : 'Copy rows'}
      </button>
      {copied && (
        <span
          className={copied.error ? 'field-error records__copied' : 'hint records__copied'}
          role={copied.error ? 'alert' : 'status'}
          tabIndex={copied.error ? -1 : undefined}
          ref={errorRef}
        >
          {copied.message}
        </span>
      )}
    </>
  );
}
