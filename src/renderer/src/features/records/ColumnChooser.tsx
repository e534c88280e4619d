import { useRecords } from './RecordsContext';
import { usePopover } from './usePopover';
import { distinctLabels } from '../../../../shared/recordValues/distinctLabels';

/** Shows or hides columns; the choice is kept per module in this browser profile. */
export function ColumnChooser() {
  const columns = useRecords((s) => s.columns);
  const fieldLabels = distinctLabels(
    columns?.fields ?? [],
    (f) => f.key,
    (f) => f.label,
  );
  const layout = useRecords((s) => s.layout);
  const toggle = useRecords((s) => s.toggleColumn);
  const reset = useRecords((s) => s.resetColumns);
  const { open, setOpen, anchorProps } = usePopover();

  if (!columns || !layout) return null;
  return (
    <div {...anchorProps}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="records-column-chooser"
        onClick={() => setOpen(!open)}
      >
        Columns ({layout.visible.length})
      </button>
      {open && (
        <fieldset className="popover column-chooser" id="records-column-chooser">
          <legend>Columns shown</legend>
          <div className="column-chooser__list">
            {columns.fields.map((field) => (
              <label key={field.key}>
                <input
                  type="checkbox"
                  checked={layout.visible.includes(field.key)}
                  disabled={field.key === 'name'}
                  onChange={() => toggle(field.key)}
                />
                {fieldLabels.get(field.key) ?? field.label}
              </label>
            ))}
          </div>
          <button type="button" className="link-button" onClick={reset}>
            Reset to the default columns
          </button>
        </fieldset>
      )}
    </div>
  );
}
