import { useState } from 'react';

/** Levels open at first: the delivered payload's envelope and its `events` show at once. */
const OPEN_LEVELS = 2;

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    return <span className="json-tree__string">{JSON.stringify(value)}</span>;
  }
  if (typeof value === 'number') return <span className="json-tree__number">{String(value)}</span>;
  if (Array.isArray(value)) return <span className="json-tree__punct">[]</span>;
  if (value !== null && typeof value === 'object') {
    return <span className="json-tree__punct">{'{}'}</span>;
  }
  // true, false, null
  return <span className="json-tree__literal">{String(value)}</span>;
}

function Name({ name }: { name: string | null }) {
  return name === null ? null : <span className="json-tree__key">{name}: </span>;
}

function JsonNode({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const [open, setOpen] = useState(depth < OPEN_LEVELS);
  const entries: [string, unknown][] | null =
    value !== null && typeof value === 'object'
      ? Array.isArray(value)
        ? value.map((item, index) => [String(index), item])
        : Object.entries(value)
      : null;
  if (!entries || entries.length === 0) {
    return (
      <li>
        <Name name={name} />
        <Scalar value={value} />
      </li>
    );
  }
  const size = Array.isArray(value)
    ? `[${entries.length} ${entries.length === 1 ? 'item' : 'items'}]`
    : `{${entries.length} ${entries.length === 1 ? 'key' : 'keys'}}`;
  return (
    <li>
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          <Name name={name} />
          <span className="json-tree__punct">{size}</span>
        </summary>
        {/* A closed level is not built: a body may hold thousands of values. */}
        {open && (
          <ul>
            {entries.map(([key, item]) => (
              <JsonNode key={key} name={key} value={item} depth={depth + 1} />
            ))}
          </ul>
        )}
      </details>
    </li>
  );
}

/**
 * A JSON value as a tree (issue 19): each object and array a native disclosure (`details`), so
 * it opens and closes with the keyboard as well as the mouse, the first levels open; strings
 * quoted as in JSON. `label` names the list and its top level.
 */
export function JsonTree({ value, label }: { value: unknown; label: string }) {
  return (
    <ul className="json-tree mono" aria-label={label}>
      <JsonNode name={label} value={value} depth={0} />
    </ul>
  );
}
