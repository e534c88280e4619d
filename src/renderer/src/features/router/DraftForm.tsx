import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The form that edits one named item of a router list (a rule, a target): a card with the name
 * first, then `children`, then "Save <item>" and "Cancel", and why the last save failed beside
 * them; it saves on submit (Enter too).
 */
export function DraftForm({
  item,
  name,
  onNameChange,
  onSave,
  onCancel,
  error = null,
  children,
}: {
  /** "Rule", "Target": the form's accessible name and its save button's. */
  item: string;
  name: string;
  onNameChange: (name: string) => void;
  onSave: () => void;
  onCancel: () => void;
  /** Why saving failed, in words: shown beside Save, and the keyboard's focus goes to it. */
  error?: string | null;
  children: ReactNode;
}) {
  const errorRef = useRef<HTMLParagraphElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  // Opened, the form takes the keyboard (it opens below the list, past every row's Edit).
  useEffect(() => {
    nameRef.current?.focus();
  }, []);
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
        Name <input ref={nameRef} value={name} onChange={(e) => onNameChange(e.target.value)} />
      </label>
      {children}
      <div className="actions">
        <button type="submit">Save {item.toLowerCase()}</button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert" tabIndex={-1} ref={errorRef}>
          {error}
        </p>
      )}
    </form>
  );
}
