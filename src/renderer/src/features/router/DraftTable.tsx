import { useRef, useState, type ReactNode } from 'react';
import { DraftForm } from './DraftForm';
import { useRouter } from './useRouter';

/**
 * A router list (rules, targets): "New <item>", a table of rows (name first, `cells` next, then
 * "Edit"), and below it the open draft's DraftForm, closed once `onSave` resolves to a result.
 * The form takes the keyboard when it opens (its name first) and, closed by Save or Cancel, gives
 * it back to the button that opened it: the form's own buttons leave with it, and the focus would
 * fall to the page's body.
 */
export function DraftTable<
  Row extends { id: string; name: string },
  Draft extends { name: string },
>({
  item,
  columns,
  empty,
  rows,
  cells,
  newDraft,
  toDraft,
  onSave,
  form,
}: {
  /** "Rule", "Target": the first column's heading; lower-cased in "New <item>". */
  item: string;
  /** Headings of the columns between the name and the Edit button. */
  columns: readonly string[];
  /** Shown in the one row of an empty list. */
  empty: string;
  rows: readonly Row[];
  /** The `<td>`s of one row between its name and its Edit button. */
  cells: (row: Row) => ReactNode;
  newDraft: () => Draft;
  toDraft: (row: Row) => Draft;
  /** Resolves to undefined when saving failed (the store shows why), so the form stays open. */
  onSave: (draft: Draft) => Promise<unknown>;
  /** The form's fields after the name. */
  form: (draft: Draft, setDraft: (draft: Draft) => void) => ReactNode;
}) {
  const [draft, setDraft] = useState<Draft | null>(null);
  // Why the last save of the open form failed, shown beside its Save button (the store keeps it).
  const error = useRouter((state) => state.error);
  const [failed, setFailed] = useState(false);
  /** The "New" or "Edit" button the open form came from. */
  const opener = useRef<HTMLElement | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const open = (next: Draft | null, from?: HTMLElement) => {
    setFailed(false);
    setDraft(next);
    if (from) opener.current = from;
  };
  const close = () => {
    open(null);
    // An Edit button whose row went away hands over to "New".
    (opener.current?.isConnected ? opener.current : newButton.current)?.focus();
  };
  return (
    <div className="router-panel">
      <button
        ref={newButton}
        type="button"
        onClick={(event) => open(newDraft(), event.currentTarget)}
      >
        New {item.toLowerCase()}
      </button>
      <table className="data-table">
        <thead>
          <tr>
            <th>{item}</th>
            {columns.map((column) => (
              <th key={column}>{column}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length + 2} className="muted">
                {empty}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{row.name}</td>
              {cells(row)}
              <td>
                <button type="button" onClick={(event) => open(toDraft(row), event.currentTarget)}>
                  Edit
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {draft && (
        <DraftForm
          item={item}
          name={draft.name}
          onNameChange={(name) => setDraft({ ...draft, name })}
          onSave={() => void onSave(draft).then((saved) => (saved ? close() : setFailed(true)))}
          onCancel={close}
          error={failed ? error : null}
        >
          {form(draft, setDraft)}
        </DraftForm>
      )}
    </div>
  );
}
