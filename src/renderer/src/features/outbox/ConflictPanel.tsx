/**
 * One conflict, field by field: what the value was when the edit was made (base), the edit
 * (mine) and the service's value now (theirs), with "keep mine", "take theirs" and, for text, an
 * edit box. A record deleted or trashed on the service offers keeping mine or theirs as a whole.
 */
import { useState, type ReactNode } from 'react';
import type { ConflictField, OutboxEntry } from '../../../../shared/ipc/areas/outbox';
import { formatValue } from './outboxFormat';
import { useOutbox } from './OutboxContext';

type Choice = { choice: 'mine' | 'theirs' | 'edited'; value?: string };

function FieldRow({
  field,
  choice,
  onChoose,
}: {
  field: ConflictField;
  choice: Choice | undefined;
  onChoose(c: Choice): void;
}) {
  const [text, setText] = useState(typeof field.mine === 'string' ? field.mine : '');
  return (
    <tr data-field={field.field}>
      <th scope="row">{field.label}</th>
      <td>{formatValue(field.type, field.base)}</td>
      <td>{formatValue(field.type, field.mine)}</td>
      <td>{formatValue(field.type, field.theirs)}</td>
      <td className="conflict__keep">
        <div className="conflict__choices" role="radiogroup" aria-label={`Keep for ${field.label}`}>
          <label>
            <input
              type="radio"
              name={`c-${field.field}`}
              checked={choice?.choice === 'mine'}
              onChange={() => onChoose({ choice: 'mine' })}
            />
            Keep mine
          </label>
          <label>
            <input
              type="radio"
              name={`c-${field.field}`}
              checked={choice?.choice === 'theirs'}
              onChange={() => onChoose({ choice: 'theirs' })}
            />
            Take theirs
          </label>
          {field.editable && (
            <label>
              <input
                type="radio"
                name={`c-${field.field}`}
                checked={choice?.choice === 'edited'}
                onChange={() => onChoose({ choice: 'edited', value: text })}
              />
              Edit
            </label>
          )}
        </div>
        {field.editable && choice?.choice === 'edited' && (
          <textarea
            aria-label={`${field.label}: the text to keep`}
            value={text}
            rows={3}
            onChange={(event) => {
              setText(event.target.value);
              onChoose({ choice: 'edited', value: event.target.value });
            }}
          />
        )}
      </td>
    </tr>
  );
}

/** `children`: the entry's other actions (Discard), shown in the panel's row of buttons. */
export function ConflictPanel({ entry, children }: { entry: OutboxEntry; children?: ReactNode }) {
  const resolve = useOutbox((s) => s.resolve);
  const busy = useOutbox((s) => s.busy);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const conflict = entry.conflict;
  if (!conflict) return null;

  if (conflict.kind !== 'fields') {
    return (
      <div className="conflict" data-testid="conflict-panel">
        <p>
          {conflict.kind === 'deleted'
            ? 'This record was deleted on the service after you changed it.'
            : 'This record was moved to the trash on the service after you changed it.'}
        </p>
        <div className="conflict__actions actions">
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void resolve(entry.id, [], 'mine')}
          >
            {conflict.kind === 'deleted' ? 'Keep mine (create it again)' : 'Keep mine (restore it)'}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void resolve(entry.id, [], 'theirs')}
          >
            Take theirs (drop my change)
          </button>
          {children}
        </div>
      </div>
    );
  }
  const chosen = Object.entries(choices).map(([field, c]) => ({ field, ...c }));
  return (
    <div className="conflict" data-testid="conflict-panel">
      <table className="data-table conflict__table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Base</th>
            <th scope="col">Mine</th>
            <th scope="col">Theirs</th>
            <th scope="col">Keep</th>
          </tr>
        </thead>
        <tbody>
          {conflict.fields.map((field) => (
            <FieldRow
              key={field.field}
              field={field}
              choice={choices[field.field]}
              onChoose={(c) => setChoices((prev) => ({ ...prev, [field.field]: c }))}
            />
          ))}
        </tbody>
      </table>
      <div className="conflict__actions actions">
        <button
          type="button"
          className="primary"
          disabled={busy || chosen.length === 0}
          onClick={() => void resolve(entry.id, chosen)}
        >
          Resolve {chosen.length > 0 ? `${chosen.length} of ${conflict.fields.length}` : ''}
        </button>
        {children}
        {chosen.length === 0 && (
          <span className="muted">Choose what to keep for each field, then resolve.</span>
        )}
      </div>
    </div>
  );
}
