import type { ReactNode } from 'react';

/**
 * The form that edits one item of a router list (a rule, a target): a card that saves on submit
 * (Enter too), with "Save <item>" and "Cancel" under its fields.
 */
export function DraftForm({
  item,
  onSave,
  onCancel,
  children,
}: {
  /** "Rule", "Target": the form's accessible name and its save button's. */
  item: string;
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
      {children}
      <div className="router-actions">
        <button type="submit">Save {item.toLowerCase()}</button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
