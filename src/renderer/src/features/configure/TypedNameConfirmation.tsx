import { useId, useState, type ReactNode } from 'react';

/**
 * A permanent delete asked in place: what goes (`children`), then the thing's name typed exactly;
 * the button stays disabled until `problemOf` says it matches, and the engine's refusal shows
 * beside it. Used for modules and fields.
 */
export function TypedNameConfirmation({
  label,
  name,
  problemOf,
  submitLabel,
  busy,
  error,
  onConfirm,
  onCancel,
  children,
}: {
  /** The form's accessible name ("Delete Assets permanently"). */
  label: string;
  /** What must be typed. */
  name: string;
  problemOf(typed: string): string | null;
  submitLabel: string;
  busy: boolean;
  error: string | undefined;
  /** Gets the typed name, trimmed. */
  onConfirm(typed: string): void;
  onCancel(): void;
  children: ReactNode;
}) {
  const [typed, setTyped] = useState('');
  const ids = useId();
  const problem = problemOf(typed);
  return (
    <form
      className="configure-confirm configure-confirm--delete"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        if (problem !== null || busy) return;
        onConfirm(typed.trim());
      }}
    >
      {children}
      <div className="configure-field">
        <label htmlFor={`${ids}-name`}>Type {name} to confirm</label>
        <input
          id={`${ids}-name`}
          value={typed}
          autoComplete="off"
          onChange={(event) => setTyped(event.target.value)}
          aria-describedby={`${ids}-hint`}
          // Opened by the user's own click: the field they are about to type in.
          autoFocus
        />
        <p id={`${ids}-hint`} className="hint configure-form__note">
          {problem ?? 'The name matches.'}
        </p>
      </div>
      <div className="actions">
        <button
          type="submit"
          className="primary danger"
          disabled={problem !== null || busy}
          aria-describedby={error ? `${ids}-refusal` : `${ids}-hint`}
        >
          {busy ? 'Queuing…' : submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {error && (
        <p id={`${ids}-refusal`} className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
