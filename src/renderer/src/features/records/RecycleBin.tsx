import { formatInstant } from './describeValue';
import { useRecords } from './RecordsContext';
import { usePopover } from './usePopover';

/**
 * The module's records in the service's recycle bin: lists and search leave them out, so this is
 * where they are found (and the recent list, for one opened before it was trashed).
 */
export function RecycleBin() {
  const trashed = useRecords((s) => s.trashed);
  const error = useRecords((s) => s.trashedError);
  const load = useRecords((s) => s.loadTrashed);
  const openRecord = useRecords((s) => s.openRecord);
  const timeZone = useRecords((s) => s.columns?.timeZone ?? 'UTC');
  // Read again each time it opens: a sync may have trashed or restored records since.
  const { open, setOpen, anchorProps } = usePopover(load);

  return (
    <div {...anchorProps}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="records-recycle-bin"
        onClick={() => setOpen(!open)}
      >
        Recycle bin
      </button>
      {open && (
        <div
          className="popover recycle-bin"
          id="records-recycle-bin"
          role="dialog"
          aria-label="Recycle bin"
        >
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          {trashed === null && !error && <p className="hint">Reading…</p>}
          {trashed?.length === 0 && (
            <p className="hint">No records of this module are in the recycle bin.</p>
          )}
          {trashed && trashed.length > 0 && (
            <ul>
              {trashed.map((item) => (
                <li key={item.recordId}>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      setOpen(false);
                      void openRecord(item.recordId);
                    }}
                  >
                    {item.name}
                  </button>
                  <span className="hint"> · {formatInstant(item.trashedTime, { timeZone })}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
