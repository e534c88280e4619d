import { useId, useRef, useState, type FormEvent } from 'react';

/**
 * A name typed in place (a layout's or a section's, new or renamed): its problem in the shared
 * rules' words beside the field as the user types, nothing sent while there is one (focus goes
 * back to the field), the engine's refusal beside the submit button. Escape cancels.
 */
export function InlineNameForm({
  title,
  label,
  initial = '',
  problemOf,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
  autoFocus = false,
}: {
  /** What the form does, its accessible name: "Rename Standard". */
  title: string;
  /** The name field's label. */
  label: string;
  initial?: string;
  problemOf(name: string): string | null;
  submitLabel: string;
  busy: boolean;
  /** The engine's refusal of the last submit, in its words. */
  error: string | undefined;
  /** Resolves true once queued. */
  onSubmit(name: string): Promise<boolean>;
  /** Absent: the form stays open (a "new" form that is always there). */
  onCancel?(): void;
  autoFocus?: boolean;
}) {
  const [name, setName] = useState(initial);
  const [touched, setTouched] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = useId();
  const problem = problemOf(name);
  const shown = touched ? problem : null;
  const unchanged = initial !== '' && name === initial;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (unchanged) {
      onCancel?.();
      return;
    }
    setTouched(true);
    if (problem !== null) {
      input.current?.focus();
      return;
    }
    if (await onSubmit(name.trim())) {
      setName(initial);
      setTouched(false);
    }
  };

  return (
    <form
      className="layouts-name-form"
      aria-label={title}
      noValidate
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel) {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="configure-field">
        <label htmlFor={`${ids}-name`}>{label}</label>
        <input
          ref={input}
          id={`${ids}-name`}
          value={name}
          autoComplete="off"
          // Opened by the user's own click: the field they are about to type in.
          autoFocus={autoFocus}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${ids}-problem` : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setTouched(true);
          }}
        />
        {shown && (
          <p id={`${ids}-problem`} className="configure-field__problem">
            {shown}
          </p>
        )}
      </div>
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={busy}
          aria-describedby={error ? `${ids}-refusal` : undefined}
        >
          {busy ? 'Queuing…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {error && (
        <p id={`${ids}-refusal`} className="error configure-form__refusal" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
