/**
 * A multi-select or multi-user value edited item by item (issue 14): each item held is a chip
 * with its own Remove button, and a menu adds one of the items not chosen yet. Items the field no
 * longer offers stay until removed: a list box could not show them, so any change made there
 * dropped them unseen.
 */
import type { EditableField } from '../../../../shared/ipc/areas/outbox';
import type { DraftItem } from './fieldDraft';

export interface ItemsControlProps {
  field: EditableField;
  items: DraftItem[];
  /** The add menu's id: the field's label names it. */
  id: string;
  described: { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  onChange(items: DraftItem[]): void;
}

function offered(field: EditableField): DraftItem[] {
  return field.type === 'multi_user'
    ? field.users.map((u) => ({ key: u.zpuid, label: u.name ?? u.zpuid }))
    : field.options.map((o) => ({ key: o.name, label: o.name }));
}

export function ItemsControl({ field, items, id, described, onChange }: ItemsControlProps) {
  const chosen = new Set(items.map((item) => item.key));
  const addable = offered(field).filter((item) => !chosen.has(item.key));
  const noun = field.type === 'multi_user' ? 'user' : 'option';
  return (
    <div className="field-editor__items">
      {items.length > 0 ? (
        <ul className="field-editor__chips" aria-label={`${field.label}: chosen`}>
          {items.map((item) => (
            <li key={item.key} className="chip" data-item={item.key}>
              {item.label}
              <button
                type="button"
                className="icon-button field-editor__remove"
                aria-label={`Remove ${item.label} from ${field.label}`}
                title={`Remove ${item.label}`}
                onClick={() => onChange(items.filter((other) => other.key !== item.key))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted field-editor__none">None chosen.</p>
      )}
      <select
        id={id}
        value=""
        disabled={addable.length === 0}
        onChange={(event) => {
          const added = addable.find((item) => item.key === event.target.value);
          if (added) onChange([...items, added]);
        }}
        {...described}
      >
        <option value="">
          {addable.length === 0
            ? `No other ${noun} to add`
            : `Add a${noun === 'option' ? 'n' : ''} ${noun}…`}
        </option>
        {addable.map((item) => (
          <option key={item.key} value={item.key}>
            {item.label}
          </option>
        ))}
      </select>
    </div>
  );
}
