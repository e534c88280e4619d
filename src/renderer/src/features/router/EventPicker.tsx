import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { PublisherView } from '../../../../shared/ipc/areas/router';
import {
  groupState,
  pickerEvents,
  pickerGroups,
  toggleGroup,
  type PickerEvent,
  type PickerGroup,
} from './eventPickerModel';

/** A checkbox for a group of events: checked when all are selected, mixed when some are. */
function GroupCheckbox({
  label,
  events,
  selected,
  onToggle,
}: {
  label: string;
  events: readonly PickerEvent[];
  selected: ReadonlySet<string>;
  onToggle: (events: readonly PickerEvent[]) => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  const countId = useId();
  const state = groupState(events, selected);
  useEffect(() => {
    // `indeterminate` is a property only (no attribute sets it); it is what reads as "mixed".
    if (box.current) box.current.indeterminate = state === 'some';
  }, [state]);
  const count = events.filter((event) => selected.has(event.id)).length;
  return (
    <div className="event-picker__group">
      <label>
        <input
          ref={box}
          type="checkbox"
          checked={state === 'all'}
          aria-describedby={countId}
          onChange={() => onToggle(events)}
        />{' '}
        {label}
      </label>
      <span className="muted" id={countId}>
        {count} of {events.length} selected
      </span>
    </div>
  );
}

function EventList({
  events,
  selected,
  onToggle,
}: {
  events: readonly PickerEvent[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  return (
    <ul className="event-picker__events">
      {events.map((event) => (
        <li key={event.id}>
          <label>
            <input
              type="checkbox"
              // The publisher too: names repeat across portals and custom publishers.
              aria-label={`${event.publisherName}: ${event.apiName}`}
              checked={selected.has(event.id)}
              onChange={() => onToggle(event.id)}
            />{' '}
            {event.apiName}
          </label>
        </li>
      ))}
    </ul>
  );
}

/**
 * The groups shown. Memoised with stable callbacks: a keystroke in the search renders only the
 * search box at once, and the hundreds of checkboxes once the deferred search catches up.
 */
const PickerList = memo(function PickerList({
  groups,
  selected,
  filtered,
  onToggle,
  onToggleGroup,
}: {
  groups: readonly PickerGroup[];
  selected: ReadonlySet<string>;
  filtered: boolean;
  onToggle: (id: string) => void;
  onToggleGroup: (events: readonly PickerEvent[]) => void;
}) {
  const shown = filtered ? ' shown' : '';
  return groups.map((group) => (
    <div
      key={group.publisherId}
      className="event-picker__publisher"
      role="group"
      aria-label={group.publisherName}
    >
      <GroupCheckbox
        label={`All${shown} of ${group.publisherName}`}
        events={group.events}
        selected={selected}
        onToggle={onToggleGroup}
      />
      {group.scopes.map((scope) =>
        scope.scope === null ? (
          <EventList key="-" events={scope.events} selected={selected} onToggle={onToggle} />
        ) : (
          <div
            key={scope.scope}
            className="event-picker__scope"
            role="group"
            aria-label={`${group.publisherName}, ${scope.scope}`}
          >
            <GroupCheckbox
              label={`All${shown} ${scope.scope} events`}
              events={scope.events}
              selected={selected}
              onToggle={onToggleGroup}
            />
            <EventList events={scope.events} selected={selected} onToggle={onToggle} />
          </div>
        ),
      )}
    </div>
  ));
});

/**
 * The events a rule listens to (issue 19: 87 bare checkboxes were unusable): a search over
 * names, scopes and publishers, groups by publisher then scope whose checkbox selects all the
 * events shown in it, a count, and "Selected only". Filtering never changes the selection.
 */
export function EventPicker({
  publishers,
  selectedIds,
  onChange,
}: {
  publishers: readonly PublisherView[];
  selectedIds: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  const [query, setQuery] = useState('');
  const [selectedOnly, setSelectedOnly] = useState(false);
  // Typing stays responsive with hundreds of events: the list follows when React has time.
  const shownQuery = useDeferredValue(query);
  const events = useMemo(() => pickerEvents(publishers), [publishers]);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const groups = useMemo(
    () => pickerGroups(events, shownQuery, selected, selectedOnly),
    [events, shownQuery, selected, selectedOnly],
  );
  const shown = groups.reduce((sum, group) => sum + group.events.length, 0);
  // A group checkbox acts on the events shown: its label says so while a filter hides some.
  const filtered = shown !== events.length;
  const chosen = events.filter((event) => selected.has(event.id)).length;

  // The callbacks read the latest selection through a ref, so they never change identity.
  const latest = useRef({ selectedIds, onChange });
  useEffect(() => {
    latest.current = { selectedIds, onChange };
  });
  const onToggle = useCallback((id: string) => {
    const { selectedIds: ids, onChange: change } = latest.current;
    change(ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);
  }, []);
  const onToggleGroup = useCallback((group: readonly PickerEvent[]) => {
    const { selectedIds: ids, onChange: change } = latest.current;
    change(toggleGroup(ids, group));
  }, []);

  return (
    <fieldset className="event-picker">
      <legend>Events</legend>
      <div className="event-picker__bar">
        <input
          type="search"
          aria-label="Search events"
          placeholder="Search by event, scope or publisher"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            // Enter would save the rule; Escape clears the search before anything else.
            if (e.key === 'Enter') e.preventDefault();
            if (e.key === 'Escape' && query !== '') {
              e.preventDefault();
              e.stopPropagation();
              setQuery('');
            }
          }}
        />
        <label>
          <input
            type="checkbox"
            checked={selectedOnly}
            onChange={(e) => setSelectedOnly(e.target.checked)}
          />{' '}
          Selected only
        </label>
        <span className="muted" role="status" data-testid="event-picker-count">
          {chosen} of {events.length} selected
          {filtered && ` · ${shown} shown`}
        </span>
      </div>
      <div className="event-picker__list">
        {groups.length === 0 && (
          <p className="muted">
            {selectedOnly && chosen === 0
              ? 'No event selected yet.'
              : `No event matches “${shownQuery.trim()}”${selectedOnly ? ' among those selected' : ''}.`}
          </p>
        )}
        <PickerList
          groups={groups}
          selected={selected}
          filtered={filtered}
          onToggle={onToggle}
          onToggleGroup={onToggleGroup}
        />
      </div>
    </fieldset>
  );
}
