import { useState, type FormEvent } from 'react';
import { SAVED_FILTER_NAME_MAX } from '../../../../shared/ipc/areas/records';
import { useRecords } from '../records/RecordsContext';

/** The module's saved filters: open one, delete one, save the filter being built under a name. */
export function SavedFilters({ canSave }: { canSave: boolean }) {
  const saved = useRecords((s) => s.saved);
  const error = useRecords((s) => s.savedError);
  const filter = useRecords((s) => s.filter);
  const loadSaved = useRecords((s) => s.loadSaved);
  const saveFilter = useRecords((s) => s.saveFilter);
  const deleteFilter = useRecords((s) => s.deleteFilter);
  const [name, setName] = useState('');
  const [status, setStatus] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return;
    const replacing = saved.some((s) => s.name === trimmed);
    if (await saveFilter(trimmed)) {
      setStatus(replacing ? `Replaced "${trimmed}".` : `Saved as "${trimmed}".`);
      setName('');
    } else {
      setStatus(null);
    }
  };

  return (
    <section className="saved-filters" aria-label="Saved filters">
      <h3>Saved filters</h3>
      {saved.length === 0 ? (
        <p className="hint">None yet for this module.</p>
      ) : (
        <ul>
          {saved.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className={`link-button${item.filter === filter ? ' is-current' : ''}`}
                aria-current={item.filter === filter || undefined}
                onClick={() => loadSaved(item)}
              >
                {item.name}
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Delete saved filter ${item.name}`}
                onClick={() => void deleteFilter(item.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(event) => void submit(event)} className="saved-filters__form">
        <input
          aria-label="Name for this filter"
          placeholder="Name for this filter"
          maxLength={SAVED_FILTER_NAME_MAX}
          value={name}
          disabled={!canSave}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" disabled={!canSave || name.trim() === ''}>
          Save filter
        </button>
      </form>
      {!canSave && <p className="hint">Build a valid filter to save it.</p>}
      {status && (
        <p className="hint" role="status">
          {status}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
