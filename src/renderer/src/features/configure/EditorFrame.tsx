import { useId, type ReactNode } from 'react';

/**
 * The frame every list editor of a field opens in (options, statuses, users and roles): its
 * heading and Close, the read's failure with Try again, "Reading …" until the list is there, then
 * the editor itself.
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
  return (
    <section className="options-editor" aria-labelledby={titleId}>
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
