import type { ReactNode } from 'react';

/**
 * The form that edits one named item of a router list (a rule, a target): a card with the name
 * first, then `children`, then "Save <item>" and "Cancel"; it saves on submit (Enter too).
 */
export function DraftForm({
  item,
  name,
  onNameChange,
  onSave,
  onCancel,
  children,
}: {
  /** "Rule", "Target": the form's accessible name and its save button's. */
  item: string;
  name: string;
  onNameChange: (name: string) => void;
  onSave: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="card router-form"
      aria-label={item}
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <label>
        Name <input value={name} onChange={(e) => onNameChange(e.target.value)} />
      </label>
      {children}
      <div className="actions">
        <button type="submit">Save {item.toLowerCase()}</button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
