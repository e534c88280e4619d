import { forwardRef, useEffect, useState, type KeyboardEvent } from 'react';
import { SEARCH_TEXT_MAX } from '../../../../shared/ipc/areas/records';
import { Highlighted } from './Highlighted';
import { useRecords } from './RecordsContext';

/** A pause after typing before searching: a word is usually typed in one go. */
const SEARCH_DELAY_MS = 200;

const SOURCE_LABEL = { name: 'name', description: 'description', comment: 'comment' } as const;

/** Full-text search of the portal: names, descriptions and comments, matched words marked. */
export const SearchBox = forwardRef<HTMLInputElement>(function SearchBox(_props, ref) {
  const hits = useRecords((s) => s.searchHits);
  const error = useRecords((s) => s.searchError);
  const search = useRecords((s) => s.search);
  const clear = useRecords((s) => s.clearSearch);
  const openRecord = useRecords((s) => s.openRecord);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  // Closed by opening a record, Escape or leaving the box; typing or coming back opens them again.
  const [dismissed, setDismissed] = useState(false);
  const open = hits !== null && text.trim() !== '' && !dismissed;

  useEffect(() => {
    const timer = setTimeout(() => void search(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, search]);
  useEffect(() => setActive(0), [hits]);

  const choose = (index: number) => {
    const hit = hits?.[index];
    if (!hit) return;
    // The record panel takes the focus (so the box's blur closes the results too).
    setDismissed(true);
    void openRecord(hit.recordId, { focus: true });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      if (open) {
        // A search box's own Escape would also empty it: the text stays, to come back to.
        event.preventDefault();
        setDismissed(true);
        return;
      }
      setText('');
      clear();
      event.currentTarget.blur();
      return;
    }
    if (!open && event.key === 'ArrowDown' && hits && text.trim() !== '') {
      setDismissed(false);
      event.preventDefault();
      return;
    }
    if (!open || !hits || hits.length === 0) return;
    if (event.key === 'ArrowDown') setActive((i) => Math.min(hits.length - 1, i + 1));
    else if (event.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
    else if (event.key === 'Enter') choose(active);
    else return;
    event.preventDefault();
  };

  return (
    <div className="search" role="search">
      <input
        ref={ref}
        type="search"
        className="search__input"
        placeholder="Search names, descriptions, comments   /"
        aria-label="Search records"
        aria-controls="records-search-results"
        aria-expanded={open}
        aria-activedescendant={open && hits && hits.length > 0 ? `search-hit-${active}` : undefined}
        role="combobox"
        aria-autocomplete="list"
        maxLength={SEARCH_TEXT_MAX}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setDismissed(false);
        }}
        onFocus={() => setDismissed(false)}
        onBlur={() => setDismissed(true)}
        onKeyDown={onKeyDown}
      />
      {open && (
        <div className="search__results" id="records-search-results">
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          {hits.length === 0 && !error ? (
            <p className="hint" role="status">
              Nothing in this portal's mirror matches “{text.trim()}”. Try fewer or shorter words.
            </p>
          ) : (
            <ul role="listbox" aria-label="Search results">
              {hits.map((hit, i) => (
                <li
                  key={`${hit.recordId}:${hit.commentId ?? ''}`}
                  id={`search-hit-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className="search-hit"
                  // The box keeps the focus while pressed; the record opens on the click, so
                  // the click does not land on the row under the results once they close.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(i)}
                  onMouseEnter={() => setActive(i)}
                >
                  <span className="search-hit__name">
                    <Highlighted parts={hit.name} />
                  </span>
                  <span className="search-hit__where">
                    {hit.module} · {SOURCE_LABEL[hit.source]}
                  </span>
                  {hit.snippet.length > 0 && (
                    <span className="search-hit__snippet">
                      <Highlighted parts={hit.snippet} />
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
});
