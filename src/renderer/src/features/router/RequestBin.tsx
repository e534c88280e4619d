import { useEffect, useRef, useState } from 'react';
import {
  MAX_BIN_HEADERS,
  MAX_BIN_HEADER_BYTES,
  type BinEntryView,
  type TargetView,
} from '../../../../shared/ipc/areas/router';
import { JsonTree } from './JsonTree';
import { formatAgo, formatTime, parseJsonInput } from './routerFormat';
import { useRouter } from './useRouter';

/** Entries read at a time; "Show more" reads this many more (the engine answers at most 500). */
const PAGE = 20;
const MAX_ENTRIES = 500;

function Body({ body }: { body: string | null }) {
  if (body === null) return <p className="muted">No body (a GET request carries none).</p>;
  const parsed = parseJsonInput(body);
  if ('value' in parsed) return <JsonTree value={parsed.value} label="Body" />;
  return (
    <>
      <p className="muted">Body (not JSON), as received:</p>
      <pre className="router-pre">{body}</pre>
    </>
  );
}

function BinEntry({ entry, nowMs }: { entry: BinEntryView; nowMs: number | null }) {
  const headers = Object.entries(entry.headers);
  const when = formatTime(entry.receivedAt);
  return (
    <li>
      <article className="router-bin__entry" aria-label={`${entry.method} received ${when}`}>
        <header className="router-bin__head">
          <span className="mono router-bin__request">
            {entry.method} {entry.url}
          </span>
          <span>
            <time dateTime={new Date(entry.receivedAt).toISOString()}>{when}</time>
            {nowMs !== null && (
              <span className="muted"> · {formatAgo(nowMs - entry.receivedAt)}</span>
            )}
          </span>
        </header>
        <details className="router-bin__headers">
          <summary>
            Headers ({headers.length}
            {entry.headersOmitted > 0 && `; ${entry.headersOmitted} left out`})
          </summary>
          <dl className="mono">
            {headers.map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {entry.headersOmitted > 0 && (
            <p className="muted">
              A request bin keeps at most {MAX_BIN_HEADERS} headers and{' '}
              {MAX_BIN_HEADER_BYTES / 1024} KiB of them; the event's delivery attempt has them all.
            </p>
          )}
        </details>
        <Body body={entry.body} />
      </article>
    </li>
  );
}

/**
 * What a request-bin target received, newest first (issue 19): each request's time (local, and
 * how long ago by the router's clock), method and address, headers (folded) and body as a JSON
 * tree, or as text when it is not JSON.
 */
export function RequestBin({ target, onClose }: { target: TargetView; onClose: () => void }) {
  const run = useRouter((state) => state.run);
  // The engine's (virtual) clock as of the last overview, read again after every action.
  const nowMs = useRouter((state) => state.overview?.clock.nowMs ?? null);
  const [entries, setEntries] = useState<BinEntryView[] | null>(null);
  const [limit, setLimit] = useState(PAGE);
  // Opened from a button in the list above: the keyboard's focus comes here, to its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const load = (count: number) =>
    void run((api) => api.router.requestBin({ targetId: target.id, limit: count })).then(
      (read) => read && setEntries(read),
    );
  useEffect(() => load(limit), [target.id, limit]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <section className="card router-bin" aria-label={`Received by ${target.name}`}>
      <header className="router-bin__bar">
        <h3 tabIndex={-1} ref={heading}>
          Received by {target.name}
        </h3>
        <span className="muted">newest first</span>
        <button type="button" onClick={() => load(limit)}>
          Refresh
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {entries === null && <p className="muted">Reading…</p>}
      {entries?.length === 0 && (
        <p className="muted">Nothing received yet: a rule that delivers here fills it.</p>
      )}
      {entries && entries.length > 0 && (
        <ol className="router-bin__list">
          {entries.map((entry) => (
            <BinEntry key={entry.id} entry={entry} nowMs={nowMs} />
          ))}
        </ol>
      )}
      {entries && entries.length === limit && limit < MAX_ENTRIES && (
        <button type="button" onClick={() => setLimit(Math.min(MAX_ENTRIES, limit + PAGE))}>
          Show {PAGE} more
        </button>
      )}
    </section>
  );
}
