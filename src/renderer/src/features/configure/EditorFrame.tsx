import { useId, type KeyboardEvent, type ReactNode } from 'react';

/** Whether Escape from `target` would throw away text typed there (then it does not close). */
function holdsTypedText(target: EventTarget): boolean {
  return (
    (target instanceof HTMLTextAreaElement ||
      (target instanceof HTMLInputElement && !['checkbox', 'radio'].includes(target.type))) &&
    target.value !== ''
  );
}

/**
 * The frame every list editor of a field opens in (options, statuses, users and roles): its
 * heading and Close, the read's failure with Try again, "Reading …" until the list is there, then
 * the editor itself. Escape closes it like Close (the row gives the focus back to its opener),
 * except from a box holding typed text; the forms inside handle their own Escape first.
 */
export function EditorFrame<T>({
  title,
  what,
  value,
  loadError,
  onReload,
  onClose,
  children,
}: {
  /** "Statuses of Assets". */
  title: string;
  /** "statuses": what could not be read, what is being read. */
  what: string;
  /** The list read, or null until it is. */
  value: T | null;
  loadError: string | undefined;
  onReload(): void;
  onClose(): void;
  /** The editor, once the list is there. */
  children: (value: T) => ReactNode;
}) {
  const titleId = `${useId()}-title`;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || holdsTypedText(event.target)) return;
    event.stopPropagation();
    onClose();
  };
  return (
    <section className="options-editor" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <div className="options-editor__head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {loadError && (
        <p className="error banner" role="alert">
          <span>
            The {what} could not be read: {loadError}
          </span>
          <button type="button" onClick={onReload}>
            Try again
          </button>
        </p>
      )}
      {value !== null ? children(value) : !loadError && <p className="muted">Reading {what}…</p>}
    </section>
  );
}
