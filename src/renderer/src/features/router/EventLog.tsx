import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { OverallStatus } from '../../../../shared/ipc/areas/router';
import { EventDetail } from './EventDetail';
import { formatTime, fromLocalInput } from './routerFormat';
import { StatusBadge } from './StatusBadge';
import { useRouter } from './useRouter';

/**
 * Every row is this tall, one line each (issue 19: a wrapped publisher name ran over the rows
 * below): a cell too long for its column ends in an ellipsis and says all of it in its tooltip.
 */
const ROW_HEIGHT = 34;

/** The event log: filters, a virtualised list that grows as it scrolls, and the selected event. */
export function EventLog() {
  const events = useRouter((state) => state.events);
  const total = useRouter((state) => state.total);
  const filters = useRouter((state) => state.filters);
  const overview = useRouter((state) => state.overview);
  const setFilters = useRouter((state) => state.setFilters);
  const loadEvents = useRouter((state) => state.loadEvents);
  const select = useRouter((state) => state.select);
  const selectedId = useRouter((state) => state.selectedId);
  const scroller = useRef<HTMLDivElement>(null);
  const publishers = new Map(overview?.publishers.map((p) => [p.id, p.name]) ?? []);

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's documented hook
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  if (last && last.index >= events.length - 20 && events.length < total) void loadEvents(true);

  return (
    <div className="router-log">
      <div className="router-log__filters" role="group" aria-label="Filter events">
        <label>
          Status
          <select
            value={filters.status ?? ''}
            onChange={(e) =>
              setFilters({ status: (e.target.value || undefined) as typeof filters.status })
            }
          >
            <option value="">any</option>
            {OverallStatus.options.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </label>
        <label>
          Publisher
          <select
            value={filters.publisherId ?? ''}
            onChange={(e) => setFilters({ publisherId: e.target.value || undefined })}
          >
            <option value="">any</option>
            {overview?.publishers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Rule
          <select
            value={filters.ruleId ?? ''}
            onChange={(e) => setFilters({ ruleId: e.target.value || undefined })}
          >
            <option value="">any</option>
            {overview?.rules.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input
            type="datetime-local"
            onChange={(e) => setFilters({ fromMs: fromLocalInput(e.target.value) })}
          />
        </label>
        <label>
          To
          <input
            type="datetime-local"
            onChange={(e) => setFilters({ toMs: fromLocalInput(e.target.value) })}
          />
        </label>
        <span className="muted" data-testid="router-event-total">
          {total} event{total === 1 ? '' : 's'}
        </span>
      </div>
      <div className="router-log__body">
        <div ref={scroller} className="router-log__list" role="listbox" aria-label="Events">
          {events.length === 0 && (
            <p className="muted router-log__empty">
              No events match. Send a test event from a publisher's event.
            </p>
          )}
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const event = events[item.index]!;
              const publisher = publishers.get(event.publisherId) ?? event.publisherId;
              return (
                <button
                  type="button"
                  role="option"
                  aria-selected={selectedId === event.id}
                  key={event.id}
                  className="router-log__row"
                  style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                  onClick={() => void select(event.id)}
                >
                  <span className="mono">{formatTime(event.timeMs)}</span>
                  <span title={event.apiName}>{event.apiName}</span>
                  <span className="muted" title={publisher}>
                    {publisher}
                  </span>
                  <StatusBadge status={event.status} />
                </button>
              );
            })}
          </div>
        </div>
        <EventDetail />
      </div>
    </div>
  );
}
