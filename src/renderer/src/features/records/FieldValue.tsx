import { memo, useContext, type MouseEvent } from 'react';
import { describeValue, type ValueContext } from '../../../../shared/recordValues/describeValue';
import { LinkOpenerContext } from './LinkOpenerContext';

/** `MouseEvent.button` of the middle (wheel) button. */
const MIDDLE_BUTTON = 1;

export interface FieldValueProps {
  type: string;
  value: unknown;
  context: ValueContext;
  /** In a table cell the text stays on one line; the detail panel shows it whole. */
  variant?: 'cell' | 'detail';
  /** The record holding the value: the engine opens a link only if that record holds it. */
  recordId?: string;
}

/**
 * One value of any field type. Links go to the system browser through the engine's
 * `app.openLink`, which opens only http(s) addresses the record holds; without an engine (static
 * renders) or a record they stay plain links, opened without access to this page (noopener).
 */
export const FieldValue = memo(function FieldValue({
  type,
  value,
  context,
  variant = 'cell',
  recordId,
}: FieldValueProps) {
  const view = describeValue(type, value, context);
  const openLink = useContext(LinkOpenerContext);
  switch (view.kind) {
    case 'empty':
      return (
        <span className="value value--empty" aria-label="empty">
          —
        </span>
      );
    case 'status':
      return (
        <span className={`value status-chip${view.closed ? ' is-closed' : ''}`}>
          <span
            className="status-chip__dot"
            aria-hidden="true"
            style={view.color ? { background: view.color } : undefined}
          />
          {view.text}
        </span>
      );
    case 'user':
      return (
        <span className="value value--user" title={view.title}>
          {view.text}
        </span>
      );
    case 'chips':
      return (
        <span className="value chips">
          {view.items.map((item, i) => (
            <span className="chip" key={`${i}:${item}`}>
              {item}
            </span>
          ))}
        </span>
      );
    case 'check':
      return (
        <span
          className={`value check${view.checked ? ' is-checked' : ''}`}
          role="img"
          aria-label={view.checked ? 'Yes' : 'No'}
        >
          {view.checked ? '✓' : '✗'}
        </span>
      );
    case 'link': {
      const open = (event: MouseEvent) => {
        event.stopPropagation();
        if (!openLink || recordId === undefined) return;
        event.preventDefault();
        // The text the record holds, not the href's standard form: the engine opens only an
        // address it finds in the record as written (https://x.example has no slash after it).
        openLink(view.text, recordId);
      };
      return (
        <a
          className="value value--link"
          href={view.href}
          target="_blank"
          rel="noopener noreferrer"
          // In the table the cell holds the one tab stop (the grid pattern): its link is clicked.
          tabIndex={variant === 'cell' ? -1 : undefined}
          onClick={open}
          // A middle click opens a new tab by default: it goes through the opener like a click.
          onAuxClick={(event) => {
            if (event.button === MIDDLE_BUTTON) open(event);
          }}
        >
          {view.text}
        </a>
      );
    }
    case 'text':
      return (
        <span
          className={`value${view.align === 'end' ? ' value--number' : ''}${view.mono ? ' mono' : ''}${variant === 'detail' ? ' value--whole' : ''}`}
          title={view.title ?? (variant === 'cell' ? view.text : undefined)}
        >
          {view.text}
        </span>
      );
  }
});
