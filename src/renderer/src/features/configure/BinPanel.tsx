import './bin.css';
import { useEffect, useId, useRef, useState } from 'react';
import {
  BIN_KEEP_DAYS,
  BIN_SEARCH_MAX,
  BIN_SELECTION_MAX,
  type BinEntry,
  type BinListing,
  type BinModule,
} from '../../../../shared/ipc/areas/bin';
import { formatAgo } from '../sync/syncFormat';
import { useNow } from '../sync/useNow';
import { useConfigure } from './ConfigureContext';
import {
  BIN_MODULE_LABEL,
  binModuleText,
  daysLeftText,
  formatWhen,
  itemsText,
  trashedText,
} from './binFormat';
import { binKey, isBinSelectable, type BinSort } from './binSlice';

/** Ours: a pause after typing before the list follows: a word is usually typed in one go. */
const SEARCH_DELAY_MS = 200;
/** Ours: how often "read 5 min ago" is worded again. */
const AGO_REFRESH_MS = 30_000;

const MODULES = Object.keys(BIN_MODULE_LABEL) as BinModule[];

function agoText(iso: string, now: number): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : formatAgo(at, now);
}

/** One sentence, whatever the engine's words end with. */
function sentence(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

/** Module filter, search, and reading the service again; when it was read and what went wrong. */
function BinControls({ bin }: { bin: BinListing | null }) {
  const query = useConfigure((state) => state.binQuery);
  const setModule = useConfigure((state) => state.setBinModule);
  const setSearch = useConfigure((state) => state.setBinSearch);
  const readBin = useConfigure((state) => state.readBin);
  const reading = useConfigure((state) => state.busy['bin:read'] ?? false);
  const readError = useConfigure((state) => state.errors['bin:read']);
  const [typed, setTyped] = useState(query.search);
  const now = useNow(AGO_REFRESH_MS);
  const ids = useId();

  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, setSearch]);

  return (
    <div className="bin-controls">
      <div className="bin-controls__row">
        <div className="configure-field bin-controls__field">
          <label htmlFor={`${ids}-module`}>Module</label>
          <select
            id={`${ids}-module`}
            value={query.module ?? ''}
            onChange={(event) => setModule((event.target.value || null) as BinModule | null)}
          >
            <option value="">All modules</option>
            {MODULES.map((module) => (
              <option key={module} value={module}>
                {BIN_MODULE_LABEL[module]}
              </option>
            ))}
          </select>
        </div>
        <div className="configure-field bin-controls__field bin-controls__search">
          <label htmlFor={`${ids}-search`}>Search names</label>
          <input
            id={`${ids}-search`}
            type="search"
            value={typed}
            maxLength={BIN_SEARCH_MAX}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && typed !== '') {
                event.preventDefault();
                setTyped('');
              }
            }}
          />
        </div>
        <div className="actions bin-controls__read">
          <button
            type="button"
            disabled={reading}
            aria-describedby={readError ? `${ids}-read-error` : `${ids}-read-at`}
            onClick={() => void readBin(true)}
          >
            Read again
          </button>
          <span id={`${ids}-read-at`} className="muted" role="status">
            {reading
              ? 'Reading the bin from the service…'
              : bin === null
                ? ''
                : bin.readAt
                  ? `Read ${agoText(bin.readAt, now)}`
                  : 'Not read from the service yet'}
          </span>
        </div>
      </div>
      {readError && (
        <p id={`${ids}-read-error`} className="error bin-controls__error" role="alert">
          The bin could not be read: {readError}
        </p>
      )}
      {bin?.problem && (
        <p className="banner error bin-problem" role="status">
          <span>
            The service could not be read just now: {sentence(bin.problem)}. The list is as last
            read
            {bin.readAt ? ` (${agoText(bin.readAt, now)})` : ''}; restoring and deleting are queued
            and sent when it can be reached.
          </span>
        </p>
      )}
    </div>
  );
}

function SortHeader({
  by,
  label,
  sort,
  onSort,
}: {
  by: BinSort['by'];
  label: string;
  sort: BinSort;
  onSort(sort: BinSort): void;
}) {
  const active = sort.by === by;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
      className={active ? 'is-sorted' : undefined}
    >
      <button
        type="button"
        className="bin-sort"
        onClick={() =>
          onSort(
            active
              ? { by, descending: !sort.descending }
              : // Newest first, names A to Z: what a first click usually wants.
                { by, descending: by === 'trashed_time' },
          )
        }
      >
        {label}
        <span aria-hidden="true" className="bin-sort__arrow">
          {active ? (sort.descending ? '▼' : '▲') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** "Select all shown": checked when every item open to an action is, mixed when some are. */
function SelectAll({ entries }: { entries: readonly BinEntry[] }) {
  const selected = useConfigure((state) => state.binSelected);
  const setSelected = useConfigure((state) => state.setBinSelected);
  const ref = useRef<HTMLInputElement>(null);
  const selectable = entries.filter(isBinSelectable);
  const count = selectable.filter((entry) => selected.has(binKey(entry))).length;
  const all = selectable.length > 0 && count === selectable.length;
  const some = count > 0 && !all;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label="Select all shown"
      checked={all}
      disabled={selectable.length === 0}
      onChange={() => setSelected(selectable, !all)}
    />
  );
}

const PENDING_MARK: Record<NonNullable<BinEntry['pending']>, string> = {
  restore: 'Restore queued',
  delete: 'Delete queued',
};

function BinRow({ entry }: { entry: BinEntry }) {
  const selected = useConfigure((state) => state.binSelected.has(binKey(entry)));
  const setSelected = useConfigure((state) => state.setBinSelected);
  const expired = !entry.restorable;
  const left = daysLeftText(entry);
  return (
    <tr
      className={[entry.pending ? 'is-pending' : '', expired ? 'is-expired' : '']
        .filter(Boolean)
        .join(' ')}
      data-testid={`bin-${binKey(entry)}`}
    >
      <td className="bin-table__check">
        {isBinSelectable(entry) && (
          <input
            type="checkbox"
            aria-label={`Select ${entry.name}`}
            checked={selected}
            onChange={(event) => setSelected([entry], event.target.checked)}
          />
        )}
      </td>
      <th scope="row" className="bin-table__name">
        {entry.name}
        {entry.pending && (
          <span className="configure-badge bin-pending"> {PENDING_MARK[entry.pending]}</span>
        )}
      </th>
      <td>{binModuleText(entry.module)}</td>
      <td>
        {entry.project ? (
          (entry.project.name ?? `Project ${entry.project.id}`)
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td>{trashedText(entry)}</td>
      <td
        className={
          expired
            ? 'text-danger'
            : entry.daysLeft !== null && entry.daysLeft <= 0
              ? 'text-warn'
              : undefined
        }
        title={
          entry.restorableUntil
            ? `Restorable until ${formatWhen(entry.restorableUntil)}`
            : undefined
        }
      >
        {left}
      </td>
    </tr>
  );
}

function BinTable({ bin }: { bin: BinListing }) {
  const sort = useConfigure((state) => state.binQuery.sort);
  const setSort = useConfigure((state) => state.setBinSort);
  if (bin.total === 0) return <p className="muted">The bin is empty.</p>;
  if (bin.items.length === 0) {
    return (
      <p className="muted">
        Nothing in the bin matches the module and search ({itemsText(bin.total)} in it).
      </p>
    );
  }
  return (
    <div className="bin-table__scroll">
      <table className="data-table bin-table">
        <caption className="muted">
          {bin.items.length === bin.total
            ? `${itemsText(bin.total)} in the bin`
            : `${bin.items.length.toLocaleString()} of ${itemsText(bin.total)} shown`}
        </caption>
        <thead>
          <tr>
            <th scope="col" className="bin-table__check">
              <SelectAll entries={bin.items} />
            </th>
            <SortHeader by="name" label="Name" sort={sort} onSort={setSort} />
            <th scope="col">Module</th>
            <th scope="col">Project</th>
            <SortHeader by="trashed_time" label="Trashed" sort={sort} onSort={setSort} />
            <th scope="col">Left of {BIN_KEEP_DAYS} days</th>
          </tr>
        </thead>
        <tbody>
          {bin.items.map((entry) => (
            <BinRow key={binKey(entry)} entry={entry} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Restore and Delete for good (asked in place) for the selected items; refusals beside them. */
function SelectionActions({ bin }: { bin: BinListing }) {
  const selected = useConfigure((state) => state.binSelected);
  const restore = useConfigure((state) => state.restoreBinItems);
  const remove = useConfigure((state) => state.deleteBinItems);
  const clearError = useConfigure((state) => state.clearError);
  const restoreError = useConfigure((state) => state.errors['bin:restore']);
  const deleteError = useConfigure((state) => state.errors['bin:delete']);
  const restoring = useConfigure((state) => state.busy['bin:restore'] ?? false);
  const deleting = useConfigure((state) => state.busy['bin:delete'] ?? false);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const ids = useId();

  const chosen = bin.items.filter((entry) => selected.has(binKey(entry)));
  const count = chosen.length;
  const expired = chosen.filter((entry) => !entry.restorable).length;
  const tooMany = count > BIN_SELECTION_MAX;
  const restoreReason = tooMany
    ? `At most ${BIN_SELECTION_MAX.toLocaleString()} items at once.`
    : expired > 0
      ? `${itemsText(expired)} selected ${expired === 1 ? 'is' : 'are'} past ${BIN_KEEP_DAYS} days and can only be deleted; clear ${expired === 1 ? 'it' : 'them'} to restore the rest.`
      : null;
  const deleteReason = tooMany ? restoreReason : null;
  const open = confirming && count > 0;

  const start = () => {
    clearError('bin:restore');
    clearError('bin:delete');
    setDone(null);
  };

  return (
    <div className="bin-selection">
      <div className="actions">
        <span className="muted" role="status">
          {count === 0 ? 'No items selected' : `${itemsText(count)} selected`}
        </span>
        <button
          type="button"
          disabled={count === 0 || restoring || restoreReason !== null}
          aria-describedby={
            [restoreError ? `${ids}-restore-error` : '', restoreReason ? `${ids}-reason` : '']
              .filter(Boolean)
              .join(' ') || undefined
          }
          onClick={() => {
            start();
            setConfirming(false);
            void restore().then(
              (queued) =>
                queued && setDone(`Restoring ${itemsText(count)} is queued in the Outbox.`),
            );
          }}
        >
          Restore
        </button>
        <button
          type="button"
          className="danger"
          disabled={count === 0 || deleting || deleteReason !== null}
          aria-expanded={open}
          onClick={() => {
            start();
            setConfirming(!open);
          }}
        >
          Delete for good…
        </button>
      </div>
      {restoreReason && count > 0 && (
        <p id={`${ids}-reason`} className="hint configure-form__note">
          {restoreReason}
        </p>
      )}
      {restoreError && (
        <p id={`${ids}-restore-error`} className="error bin-selection__error" role="alert">
          {restoreError}
        </p>
      )}
      {done && !open && (
        <p className="muted bin-selection__done" role="status">
          {done}
        </p>
      )}
      {open && (
        <div
          className="configure-confirm"
          role="group"
          aria-label={`Delete ${itemsText(count)} for good`}
        >
          <span>
            Delete {itemsText(count)} for good? {count === 1 ? 'It is' : 'They are'} removed from
            the service once sent, and this cannot be undone.
          </span>
          <button
            type="button"
            className="primary danger"
            disabled={deleting}
            aria-describedby={deleteError ? `${ids}-delete-error` : undefined}
            // The confirmation is the next step: it takes the focus.
            autoFocus
            onClick={() => {
              start();
              void remove().then((queued) => {
                if (!queued) return;
                setConfirming(false);
                setDone(`Deleting ${itemsText(count)} for good is queued in the Outbox.`);
              });
            }}
          >
            Delete for good
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep {count === 1 ? 'it' : 'them'}
          </button>
          {deleteError && (
            <p id={`${ids}-delete-error`} className="error bin-selection__error" role="alert">
              {deleteError}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** "Empty the bin": the user types the portal's name; nothing is asked until it matches. */
function EmptyBin({ bin, portalName }: { bin: BinListing; portalName: string }) {
  const empty = useConfigure((state) => state.emptyBin);
  const clearError = useConfigure((state) => state.clearError);
  const error = useConfigure((state) => state.errors['bin:empty']);
  const busy = useConfigure((state) => state.busy['bin:empty'] ?? false);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const ids = useId();

  if (bin.emptyQueued) {
    return (
      <p className="banner bin-empty" role="status">
        <span>
          Emptying the bin is queued in the Outbox: everything in it is deleted for good once it is
          sent.
        </span>
      </p>
    );
  }
  const matches = typed.trim() === portalName;
  const close = () => {
    clearError('bin:empty');
    setTyped('');
    setOpen(false);
  };
  return (
    <div className="bin-empty">
      <div className="actions">
        <button
          type="button"
          className="danger"
          disabled={bin.total === 0}
          aria-expanded={open}
          onClick={() => (open ? close() : setOpen(true))}
        >
          Empty the bin…
        </button>
        {bin.total === 0 && <span className="muted">Nothing to empty.</span>}
      </div>
      {open && (
        <form
          className="configure-confirm configure-confirm--delete"
          aria-label="Empty the recycle bin"
          onSubmit={(event) => {
            event.preventDefault();
            if (!matches || busy) return;
            void empty(typed.trim()).then((queued) => queued && close());
          }}
        >
          <p>
            Empty the bin of <strong>{portalName}</strong>? All {itemsText(bin.total)} in it{' '}
            {bin.items.length < bin.total ? '(not only those shown) ' : ''}
            are deleted for good, on the service once sent. This cannot be undone.
          </p>
          <div className="configure-field">
            <label htmlFor={`${ids}-name`}>Type {portalName} to confirm</label>
            <input
              id={`${ids}-name`}
              value={typed}
              autoComplete="off"
              onChange={(event) => setTyped(event.target.value)}
              aria-describedby={`${ids}-hint`}
              // Opened by the user's own click: the field they are about to type in.
              autoFocus
            />
            <p id={`${ids}-hint`} className="hint configure-form__note">
              {matches
                ? 'The name matches.'
                : `Type the portal's name exactly as it is written: ${portalName}.`}
            </p>
          </div>
          <div className="actions">
            <button
              type="submit"
              className="primary danger"
              disabled={!matches || busy}
              aria-describedby={error ? `${ids}-refusal` : `${ids}-hint`}
            >
              {busy ? 'Queuing…' : `Empty the bin (${itemsText(bin.total)})`}
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
          {error && (
            <p id={`${ids}-refusal`} className="error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}

/**
 * The portal's recycle bin (projects, phases, task lists, tasks and issues trashed on the
 * service): read from the service, shown as last read when it cannot be; restoring, deleting for
 * good and emptying are queued in the Outbox.
 */
export function BinPanel({ portalName }: { portalName: string }) {
  const bin = useConfigure((state) => state.bin);
  const readError = useConfigure((state) => state.errors['bin:read']);
  const ids = useId();
  return (
    <section className="card configure-bin" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Recycle bin</h2>
      <p className="hint configure-form__note">
        Items trashed on the service are kept {BIN_KEEP_DAYS} days; after that they can only be
        deleted.
      </p>
      <BinControls bin={bin} />
      {bin === null ? (
        !readError && <p className="muted">Reading the bin…</p>
      ) : (
        <>
          <SelectionActions bin={bin} />
          <BinTable bin={bin} />
          <EmptyBin bin={bin} portalName={portalName} />
        </>
      )}
    </section>
  );
}
