import './options.css';
import './statuses.css';
import { EditorFrame } from './EditorFrame';
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import {
  statusColorProblem,
  statusNameProblem,
  statusRemovalProblem,
  statusTransitionsProblem,
} from '../../../../shared/configRules/statusRules';
import type {
  ConfigStatus,
  ConfigStatuses,
  NewStatus,
  StatusChange,
} from '../../../../shared/ipc/areas/configureChoices';
import { useApi } from '../../bridge/ApiContext';
import { createChoicesStore, type ChoicesStore } from './choicesStore';
import { PendingChanges } from './PendingChanges';

/** One change as changeStatuses takes it (the module is the store's). */
export interface StatusesChange {
  add?: NewStatus[];
  update?: StatusChange[];
  move?: { id: string; position: number };
  remove?: string[];
}
type Store = ChoicesStore<ConfigStatuses, StatusesChange>;

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;
/** Ours: the colour a new status starts with (the emulator's default grey). */
const NEW_STATUS_COLOR = '#718096';

function Swatch({ color }: { color: string }) {
  return (
    <span
      className="status-swatch"
      aria-hidden="true"
      style={{ background: /^#[0-9a-fA-F]{6}$/.test(color) ? color : 'transparent' }}
    />
  );
}

/**
 * A status's settings (new or changed): name, colour, open or closed, the statuses it leads to.
 * Each control's problem in the shared rules' words beside it as the user types; nothing is sent
 * while there is one (focus goes to the first); the engine's refusal beside the submit button.
 */
function StatusForm({
  title,
  status,
  all,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  title: string;
  /** Null: a new status. */
  status: ConfigStatus | null;
  all: readonly ConfigStatus[];
  submitLabel: string;
  busy: boolean;
  error: string | undefined;
  onSubmit(draft: NewStatus): Promise<boolean>;
  onCancel?(): void;
}) {
  const [name, setName] = useState(status?.name ?? '');
  const [color, setColor] = useState(status?.color ?? NEW_STATUS_COLOR);
  const [closed, setClosed] = useState(status?.closed ?? false);
  const [transitions, setTransitions] = useState<readonly string[]>(status?.transitions ?? []);
  const [touched, setTouched] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const colorInput = useRef<HTMLInputElement>(null);
  const firstTarget = useRef<HTMLInputElement>(null);
  const ids = useId();
  const selfId = status?.id ?? null;
  // A new status may lead only to statuses there before it (the service checks before it adds).
  const targets = all.filter((other) => other.id !== selfId);
  const problems = {
    name: statusNameProblem(name, all, selfId),
    color: statusColorProblem(color.trim()),
    transitions: statusTransitionsProblem(transitions, all, selfId),
  };
  const shown = touched ? problems : { name: null, color: null, transitions: null };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setTouched(true);
    const invalid = problems.name
      ? nameInput
      : problems.color
        ? colorInput
        : problems.transitions
          ? firstTarget
          : null;
    if (invalid) {
      invalid.current?.focus();
      return;
    }
    const queued = await onSubmit({
      name: name.trim(),
      color: color.trim(),
      closed,
      transitions: [...transitions],
    });
    if (queued && status === null) {
      setName('');
      setColor(NEW_STATUS_COLOR);
      setClosed(false);
      setTransitions([]);
      setTouched(false);
    }
  };

  return (
    <form
      className="status-form"
      aria-label={title}
      noValidate
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel) {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="configure-field">
        <label htmlFor={`${ids}-name`}>Name</label>
        <input
          ref={nameInput}
          id={`${ids}-name`}
          value={name}
          autoFocus={status !== null}
          aria-invalid={shown.name ? true : undefined}
          aria-describedby={shown.name ? `${ids}-name-problem` : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setTouched(true);
          }}
        />
        {shown.name && (
          <p id={`${ids}-name-problem`} className="configure-field__problem">
            {shown.name}
          </p>
        )}
      </div>
      <div className="configure-field">
        <label htmlFor={`${ids}-color`}>Colour</label>
        <span className="status-form__color">
          <Swatch color={color.trim()} />
          <input
            ref={colorInput}
            id={`${ids}-color`}
            value={color}
            size={9}
            aria-invalid={shown.color ? true : undefined}
            aria-describedby={shown.color ? `${ids}-color-problem` : `${ids}-color-hint`}
            onChange={(event) => {
              setColor(event.target.value);
              setTouched(true);
            }}
          />
        </span>
        {shown.color ? (
          <p id={`${ids}-color-problem`} className="configure-field__problem">
            {shown.color}
          </p>
        ) : (
          <p id={`${ids}-color-hint`} className="hint configure-form__note">
            A # and six hexadecimal digits, like #2a64d6.
          </p>
        )}
      </div>
      <label className="settings-check">
        <input
          type="checkbox"
          checked={closed}
          onChange={(event) => setClosed(event.target.checked)}
        />{' '}
        Closed type (records in it count as closed)
      </label>
      <fieldset
        className="status-form__transitions"
        aria-describedby={shown.transitions ? `${ids}-transitions-problem` : undefined}
      >
        <legend>Leads to</legend>
        {targets.length === 0 ? (
          <p className="muted">No other status yet.</p>
        ) : (
          targets.map((target, index) => (
            <label key={target.id} className="settings-check">
              <input
                ref={index === 0 ? firstTarget : undefined}
                type="checkbox"
                checked={transitions.includes(target.id)}
                onChange={(event) =>
                  setTransitions(
                    event.target.checked
                      ? [...transitions, target.id]
                      : transitions.filter((id) => id !== target.id),
                  )
                }
              />{' '}
              {target.name}
            </label>
          ))
        )}
        {shown.transitions && (
          <p id={`${ids}-transitions-problem`} className="configure-field__problem">
            {shown.transitions}
          </p>
        )}
      </fieldset>
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={busy}
          aria-describedby={error ? `${ids}-refusal` : undefined}
        >
          {busy ? 'Queuing…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {error && (
        <p id={`${ids}-refusal`} className="error configure-form__refusal" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** What one status's change sends: only the settings that differ from what it shows. */
function changeOf(status: ConfigStatus, draft: NewStatus): StatusChange | null {
  const change: StatusChange = { id: status.id };
  if (draft.name !== status.name) change.name = draft.name;
  if (draft.color !== status.color) change.color = draft.color;
  if (draft.closed !== status.closed) change.closed = draft.closed;
  const same =
    draft.transitions.length === status.transitions.length &&
    draft.transitions.every((id) => status.transitions.includes(id));
  if (!same) change.transitions = draft.transitions;
  return Object.keys(change).length > 1 ? change : null;
}

function StatusRow({
  store,
  status,
  index,
  all,
  selected,
  onSelect,
}: {
  store: Store;
  status: ConfigStatus;
  index: number;
  all: readonly ConfigStatus[];
  selected: boolean;
  onSelect(selected: boolean): void;
}) {
  const change = useStore(store, (state) => state.change);
  const clearError = useStore(store, (state) => state.clearError);
  const editError = useStore(store, (state) => state.errors[`edit:${status.id}`]);
  const editBusy = useStore(store, (state) => state.busy[`edit:${status.id}`] ?? false);
  const moveError = useStore(store, (state) => state.errors[`move:${status.id}`]);
  const moveBusy = useStore(store, (state) => state.busy[`move:${status.id}`] ?? false);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const upButton = useRef<HTMLButtonElement>(null);
  const downButton = useRef<HTMLButtonElement>(null);
  const moved = useRef<'up' | 'down' | null>(null);
  const ids = useId();
  const first = index === 0;
  const last = index === all.length - 1;

  useLayoutEffect(() => {
    // The buttons are disabled while the move is queued: focus once the answer is in.
    if (moved.current === null || moveBusy) return;
    const wanted =
      moved.current === 'up' ? (first ? downButton : upButton) : last ? upButton : downButton;
    moved.current = null;
    wanted.current?.focus();
  }, [index, first, last, moveBusy]);

  const move = (direction: 'up' | 'down') => {
    moved.current = direction;
    void change(`move:${status.id}`, {
      move: { id: status.id, position: index + 1 + (direction === 'up' ? -1 : 1) },
    });
  };
  const closeEdit = () => {
    clearError(`edit:${status.id}`);
    setEditing(false);
    editButton.current?.focus();
  };
  const nameId = `${ids}-name`;
  const leadsTo = status.transitions
    .map((id) => all.find((other) => other.id === id)?.name ?? id)
    .join(', ');

  return (
    <>
      <tr className="options-row" aria-labelledby={nameId} data-testid={`status-${status.id}`}>
        <td>
          <input
            type="checkbox"
            checked={selected}
            aria-label={`Select ${status.name} for removal`}
            onChange={(event) => onSelect(event.target.checked)}
          />
        </td>
        <td className="num">{index + 1}</td>
        <th scope="row">
          <Swatch color={status.color} />{' '}
          <span id={nameId} className="options-row__name">
            {status.name}
          </span>
          {status.isDefault && <span className="configure-badge">Default</span>}
          {status.localOnly && (
            <span className="configure-badge configure-badge--muted">Not sent yet</span>
          )}
          <PendingChanges name={status.name} pending={status.pending} />
        </th>
        <td>{status.closed ? 'Closed' : 'Open'}</td>
        <td>{leadsTo === '' ? <span className="muted">none</span> : leadsTo}</td>
        <td className="num">{status.records.toLocaleString()}</td>
        <td>
          <div className="actions options-row__actions">
            <button
              ref={editButton}
              type="button"
              aria-expanded={editing}
              aria-label={`Edit ${status.name}`}
              onClick={() => (editing ? closeEdit() : setEditing(true))}
            >
              Edit
            </button>
            <button
              ref={upButton}
              type="button"
              disabled={first || moveBusy}
              aria-label={`Move ${status.name} up`}
              aria-describedby={moveError ? `${ids}-move-error` : undefined}
              onClick={() => move('up')}
            >
              ↑
            </button>
            <button
              ref={downButton}
              type="button"
              disabled={last || moveBusy}
              aria-label={`Move ${status.name} down`}
              aria-describedby={moveError ? `${ids}-move-error` : undefined}
              onClick={() => move('down')}
            >
              ↓
            </button>
          </div>
          {moveError && (
            <p id={`${ids}-move-error`} className="error configure-form__note" role="alert">
              {moveError}
            </p>
          )}
        </td>
      </tr>
      {editing && (
        <tr className="fields-row__panel">
          <td colSpan={7}>
            <StatusForm
              title={`Edit ${status.name}`}
              status={status}
              all={all}
              submitLabel="Save status"
              busy={editBusy}
              error={editError}
              onCancel={closeEdit}
              onSubmit={async (draft) => {
                const update = changeOf(status, draft);
                if (update === null) {
                  closeEdit();
                  return true;
                }
                const queued = await change(`edit:${status.id}`, { update: [update] });
                if (queued) closeEdit();
                return queued;
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * The removal preview: how many records use each chosen status, and why one cannot go (the shared
 * rules: in use, the default, the last); confirmed only when every one can.
 */
function RemovePreview({
  store,
  chosen,
  remaining,
  onDone,
  onCancel,
}: {
  store: Store;
  chosen: readonly ConfigStatus[];
  remaining: number;
  onDone(): void;
  onCancel(): void;
}) {
  const change = useStore(store, (state) => state.change);
  const error = useStore(store, (state) => state.errors.remove);
  const busy = useStore(store, (state) => state.busy.remove ?? false);
  const ids = useId();
  const problems = chosen.map((status) => statusRemovalProblem(status, remaining));
  const blocked = problems.some((problem) => problem !== null);
  return (
    <form
      className="configure-confirm configure-confirm--delete"
      aria-label="Remove statuses"
      onSubmit={(event) => {
        event.preventDefault();
        if (busy || blocked) return;
        void change('remove', { remove: chosen.map((status) => status.id) }).then(
          (queued) => queued && onDone(),
        );
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <p id={`${ids}-what`}>
        Remove {count(chosen.length, 'status', 'statuses')}?{' '}
        {blocked
          ? 'Not all of them can go:'
          : 'No mirrored record uses them; transitions to them go with them.'}
      </p>
      <ul className="options-preview" aria-label="Records using each status">
        {chosen.map((status, index) => (
          <li key={status.id}>
            <strong>{status.name}</strong>:{' '}
            {count(status.records, 'record uses this status', 'records use this status')}
            {problems[index] && (
              <span className="configure-field__problem"> {problems[index]}</span>
            )}
          </li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="submit"
          className="primary danger"
          disabled={busy || blocked}
          autoFocus={!blocked}
          aria-describedby={error ? `${ids}-refusal` : `${ids}-what`}
        >
          {busy ? 'Queuing…' : `Remove ${count(chosen.length, 'status', 'statuses')}`}
        </button>
        <button type="button" autoFocus={blocked} onClick={onCancel}>
          Cancel
        </button>
      </div>
      {error && (
        <p id={`${ids}-refusal`} className="error configure-form__refusal" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function StatusesBody({ store, onClose }: { store: Store; onClose(): void }) {
  const view = useStore(store, (state) => state.view);
  const loadError = useStore(store, (state) => state.errors.load);
  const addError = useStore(store, (state) => state.errors.add);
  const addBusy = useStore(store, (state) => state.busy.add ?? false);
  const reload = useStore(store, (state) => state.reload);
  const listen = useStore(store, (state) => state.listen);
  const change = useStore(store, (state) => state.change);
  const clearError = useStore(store, (state) => state.clearError);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [previewing, setPreviewing] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const ids = useId();
  useEffect(() => listen(), [listen]);
  useEffect(() => void reload(), [reload]);

  const list = view?.statuses ?? [];
  const chosen = list.filter((status) => selected.has(status.id));
  const closePreview = () => {
    clearError('remove');
    setPreviewing(false);
    removeButton.current?.focus();
  };
  return (
    <EditorFrame
      title={`Statuses${view ? ` of ${view.module}` : ''}`}
      what="statuses"
      value={view}
      loadError={loadError}
      onReload={() => void reload()}
      onClose={onClose}
    >
      {() => (
        <>
          <div className="options-table__scroll">
            <table className="data-table options-table">
              <caption className="muted">
                {count(list.length, 'status', 'statuses')}, shared by every layout
              </caption>
              <thead>
                <tr>
                  <th scope="col">Select</th>
                  <th scope="col" className="num">
                    #
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Leads to</th>
                  <th scope="col" className="num">
                    Records
                  </th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.map((status, index) => (
                  <StatusRow
                    key={status.id}
                    store={store}
                    status={status}
                    index={index}
                    all={list}
                    selected={selected.has(status.id)}
                    onSelect={(on) => {
                      const next = new Set(selected);
                      if (on) next.add(status.id);
                      else next.delete(status.id);
                      setSelected(next);
                      if (next.size === 0) setPreviewing(false);
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <div className="actions options-editor__remove">
            <button
              ref={removeButton}
              type="button"
              className="danger"
              aria-disabled={chosen.length === 0}
              aria-expanded={previewing}
              aria-describedby={`${ids}-remove-hint`}
              onClick={() => {
                if (chosen.length === 0) return;
                if (previewing) closePreview();
                else setPreviewing(true);
              }}
            >
              Remove…
            </button>
            <span id={`${ids}-remove-hint`} className="hint">
              {chosen.length === 0
                ? 'Tick the statuses to remove.'
                : `${count(chosen.length, 'status', 'statuses')} selected.`}
            </span>
          </div>
          {previewing && chosen.length > 0 && (
            <RemovePreview
              store={store}
              chosen={chosen}
              remaining={list.length - chosen.length}
              onCancel={closePreview}
              onDone={() => {
                setSelected(new Set());
                setPreviewing(false);
                removeButton.current?.focus();
              }}
            />
          )}
          <h3>Add a status</h3>
          <StatusForm
            title="Add a status"
            status={null}
            all={list}
            submitLabel="Add status"
            busy={addBusy}
            error={addError}
            onSubmit={(draft) => change('add', { add: [draft] })}
          />
        </>
      )}
    </EditorFrame>
  );
}

function StatusesOf({
  portalId,
  moduleId,
  onClose,
}: {
  portalId: string;
  moduleId: string;
  onClose(): void;
}) {
  const api = useApi();
  const [store] = useState(() =>
    createChoicesStore<ConfigStatuses, StatusesChange>(
      api,
      portalId,
      () => api.configure.statuses({ portalId, moduleId }),
      (change) => api.configure.changeStatuses({ portalId, moduleId, ...change }),
    ),
  );
  return <StatusesBody store={store} onClose={onClose} />;
}

/**
 * A module's statuses (its status field), administered offline: listed in order with a colour
 * swatch, open or closed, the statuses each leads to, how many mirrored records are in each and
 * their queued changes; added and edited with each control's problem in the shared rules' words;
 * moved up or down; removed only after a preview of the records using them. Needs an ApiContext.
 */
export function StatusesEditor({
  portalId,
  moduleId,
  onClose,
}: {
  portalId: string;
  moduleId: string;
  onClose(): void;
}) {
  return (
    <StatusesOf
      key={`${portalId}/${moduleId}`}
      portalId={portalId}
      moduleId={moduleId}
      onClose={onClose}
    />
  );
}
