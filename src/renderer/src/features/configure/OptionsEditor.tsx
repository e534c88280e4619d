import './options.css';
import { EditorFrame } from './EditorFrame';
import { PendingChanges } from './PendingChanges';
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { optionNameProblem } from '../../../../shared/configRules/optionRules';
import type { ConfigOption, ConfigOptions } from '../../../../shared/ipc/areas/configure';
import { useApi } from '../../bridge/ApiContext';
import { InlineNameForm } from './InlineNameForm';
import { readOptionLines } from './optionLines';
import { createOptionsStore, type OptionsStore } from './optionsStore';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;
const recordsText = (n: number) => count(n, 'record', 'records');
const typeText = (type: string) => (type === 'pick_list' ? 'pick list' : 'multi-select');

/** The add box: one name per line, each line's problem beside it, one call for all of them. */
function AddOptions({ store, options }: { store: OptionsStore; options: ConfigOptions }) {
  const change = useStore(store, (state) => state.change);
  const error = useStore(store, (state) => state.errors.add);
  const busy = useStore(store, (state) => state.busy.add ?? false);
  const [text, setText] = useState('');
  const [emptyTried, setEmptyTried] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const ids = useId();
  const { names, problems, overMax } = readOptionLines(text, options.options, options.max);
  const messages = [
    ...problems.map(({ line, problem }) => `Line ${line}: ${problem}`),
    ...(overMax ? [overMax] : []),
    ...(emptyTried && names.length === 0 ? ['Type at least one name, one per line.'] : []),
  ];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setDone(null);
    if (names.length === 0) setEmptyTried(true);
    if (names.length === 0 || problems.length > 0 || overMax) {
      box.current?.focus();
      return;
    }
    if (await change('add', { add: names })) {
      setText('');
      setDone(`${count(names.length, 'option', 'options')} queued.`);
    }
  };

  return (
    <form
      className="options-add"
      aria-label="Add options"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <div className="configure-field">
        <label htmlFor={`${ids}-names`}>New options, one per line</label>
        <textarea
          ref={box}
          id={`${ids}-names`}
          rows={4}
          value={text}
          aria-invalid={messages.length > 0 ? true : undefined}
          aria-describedby={messages.length > 0 ? `${ids}-problems` : `${ids}-hint`}
          onChange={(event) => {
            setText(event.target.value);
            setEmptyTried(false);
            setDone(null);
          }}
        />
        {messages.length > 0 ? (
          <ul id={`${ids}-problems`} className="configure-field__problem options-add__problems">
            {messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : (
          <p id={`${ids}-hint`} className="hint configure-form__note">
            {names.length > 0
              ? `${count(names.length, 'new option', 'new options')}, added at the end.`
              : 'Blank lines are ignored.'}
          </p>
        )}
      </div>
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={busy}
          aria-describedby={error ? `${ids}-refusal` : undefined}
        >
          {busy ? 'Queuing…' : 'Add options'}
        </button>
        {done && (
          <span className="muted" role="status">
            {done}
          </span>
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

/** One option: selected for removal, renamed in place, moved up or down. */
function OptionRow({
  store,
  option,
  index,
  all,
  selected,
  onSelect,
}: {
  store: OptionsStore;
  option: ConfigOption;
  index: number;
  all: readonly ConfigOption[];
  selected: boolean;
  onSelect(selected: boolean): void;
}) {
  const change = useStore(store, (state) => state.change);
  const clearError = useStore(store, (state) => state.clearError);
  const renameError = useStore(store, (state) => state.errors[`rename:${option.id}`]);
  const renameBusy = useStore(store, (state) => state.busy[`rename:${option.id}`] ?? false);
  const moveError = useStore(store, (state) => state.errors[`move:${option.id}`]);
  const moveBusy = useStore(store, (state) => state.busy[`move:${option.id}`] ?? false);
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const upButton = useRef<HTMLButtonElement>(null);
  const downButton = useRef<HTMLButtonElement>(null);
  /** The button that moved this option: it keeps the keyboard once the row has moved. */
  const moved = useRef<'up' | 'down' | null>(null);
  const ids = useId();
  const first = index === 0;
  const last = index === all.length - 1;

  useLayoutEffect(() => {
    // The buttons are disabled while the move is sent: focus once the answer is in, moved or not.
    if (moved.current === null || moveBusy) return;
    // At the top or bottom now, the way it went is disabled: the other direction takes focus.
    const wanted =
      moved.current === 'up' ? (first ? downButton : upButton) : last ? upButton : downButton;
    moved.current = null;
    wanted.current?.focus();
  }, [index, first, last, moveBusy]);

  const move = (direction: 'up' | 'down') => {
    const position = index + 1 + (direction === 'up' ? -1 : 1);
    moved.current = direction;
    void change(`move:${option.id}`, { move: { id: option.id, position } });
  };
  const closeRename = () => {
    clearError(`rename:${option.id}`);
    setRenaming(false);
    renameButton.current?.focus();
  };
  const nameId = `${ids}-name`;

  return (
    <tr className="options-row" aria-labelledby={nameId} data-testid={`option-${option.id}`}>
      <td>
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select ${option.name} for removal`}
          onChange={(event) => onSelect(event.target.checked)}
        />
      </td>
      <td className="num">{index + 1}</td>
      <th scope="row">
        <span id={nameId} className="options-row__name" hidden={renaming}>
          {option.name}
        </span>
        {renaming && (
          <InlineNameForm
            title={`Rename ${option.name}`}
            label="Name"
            initial={option.name}
            problemOf={(name) => optionNameProblem(name, all, option.id)}
            submitLabel="Rename"
            busy={renameBusy}
            error={renameError}
            autoFocus
            onCancel={closeRename}
            onSubmit={async (name) => {
              const queued = await change(`rename:${option.id}`, {
                rename: [{ id: option.id, name }],
              });
              if (queued) closeRename();
              return queued;
            }}
          />
        )}
        {option.localOnly && (
          <span className="configure-badge configure-badge--muted">Not sent yet</span>
        )}
        <PendingChanges name={option.name} pending={option.pending} />
      </th>
      <td className="num">{option.records.toLocaleString()}</td>
      <td>
        <div className="actions options-row__actions">
          <button
            ref={renameButton}
            type="button"
            aria-expanded={renaming}
            aria-label={`Rename ${option.name}`}
            onClick={() => (renaming ? closeRename() : setRenaming(true))}
          >
            Rename
          </button>
          <button
            ref={upButton}
            type="button"
            disabled={first || moveBusy}
            aria-label={`Move ${option.name} up`}
            aria-describedby={moveError ? `${ids}-move-error` : undefined}
            onClick={() => move('up')}
          >
            ↑
          </button>
          <button
            ref={downButton}
            type="button"
            disabled={last || moveBusy}
            aria-label={`Move ${option.name} down`}
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
  );
}

/** The removal preview: what each selected option's records lose, confirmed before it is sent. */
function RemovePreview({
  store,
  chosen,
  onDone,
  onCancel,
}: {
  store: OptionsStore;
  chosen: readonly ConfigOption[];
  onDone(): void;
  onCancel(): void;
}) {
  const change = useStore(store, (state) => state.change);
  const error = useStore(store, (state) => state.errors.remove);
  const busy = useStore(store, (state) => state.busy.remove ?? false);
  const ids = useId();
  const total = chosen.reduce((sum, option) => sum + option.records, 0);
  return (
    <form
      className="configure-confirm configure-confirm--delete"
      aria-label="Remove options"
      onSubmit={(event) => {
        event.preventDefault();
        if (busy) return;
        void change('remove', { remove: chosen.map((option) => option.id) }).then(
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
        Remove {count(chosen.length, 'option', 'options')}?{' '}
        {total === 0
          ? 'No mirrored record uses them.'
          : `${count(total, 'mirrored record uses', 'mirrored records use')} them in total; those records lose the option, here and on the service once sent.`}
      </p>
      <ul className="options-preview" aria-label="Records using each option">
        {chosen.map((option) => (
          <li key={option.id}>
            <strong>{option.name}</strong>: {recordsText(option.records)}
          </li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="submit"
          className="primary danger"
          disabled={busy}
          autoFocus
          aria-describedby={error ? `${ids}-refusal` : `${ids}-what`}
        >
          {busy ? 'Queuing…' : `Remove ${count(chosen.length, 'option', 'options')}`}
        </button>
        <button type="button" onClick={onCancel}>
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

function OptionsBody({ store, onClose }: { store: OptionsStore; onClose(): void }) {
  const options = useStore(store, (state) => state.options);
  const loadError = useStore(store, (state) => state.errors.load);
  const reload = useStore(store, (state) => state.reload);
  const listen = useStore(store, (state) => state.listen);
  const clearError = useStore(store, (state) => state.clearError);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [previewing, setPreviewing] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const ids = useId();
  useEffect(() => listen(), [listen]);
  useEffect(() => void reload(), [reload]);

  const list = options?.options ?? [];
  // Options gone since they were ticked (removed by a replay, say) are no longer chosen.
  const chosen = list.filter((option) => selected.has(option.id));
  const closePreview = () => {
    clearError('remove');
    setPreviewing(false);
    removeButton.current?.focus();
  };
  return (
    <EditorFrame
      title={`Options${options ? ` of ${options.field}` : ''}`}
      what="options"
      value={options}
      loadError={loadError}
      onReload={() => void reload()}
      onClose={onClose}
    >
      {(options) => (
        <>
          {list.length === 0 ? (
            <p className="muted">This field has no options yet.</p>
          ) : (
            <div className="options-table__scroll">
              <table className="data-table options-table">
                <caption className="muted">
                  {count(list.length, 'option', 'options')} of at most {options.max} (a{' '}
                  {typeText(options.type)})
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Select</th>
                    <th scope="col" className="num">
                      #
                    </th>
                    <th scope="col">Name</th>
                    <th scope="col" className="num">
                      Records
                    </th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((option, index) => (
                    <OptionRow
                      key={option.id}
                      store={store}
                      option={option}
                      index={index}
                      all={list}
                      selected={selected.has(option.id)}
                      onSelect={(on) => {
                        const next = new Set(selected);
                        if (on) next.add(option.id);
                        else next.delete(option.id);
                        setSelected(next);
                        if (next.size === 0) setPreviewing(false);
                      }}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {list.length > 0 && (
            <div className="actions options-editor__remove">
              <button
                ref={removeButton}
                type="button"
                className="danger"
                // aria-disabled, not disabled: it keeps the keyboard once its options are removed.
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
                  ? 'Tick the options to remove.'
                  : `${count(chosen.length, 'option', 'options')} selected.`}
              </span>
            </div>
          )}
          {previewing && chosen.length > 0 && (
            <RemovePreview
              store={store}
              chosen={chosen}
              onCancel={closePreview}
              onDone={() => {
                setSelected(new Set());
                setPreviewing(false);
                removeButton.current?.focus();
              }}
            />
          )}
          <AddOptions store={store} options={options} />
        </>
      )}
    </EditorFrame>
  );
}

function OptionsOf({
  portalId,
  moduleId,
  fieldId,
  onClose,
}: {
  portalId: string;
  moduleId: string;
  fieldId: string;
  onClose(): void;
}) {
  const api = useApi();
  // One store per field on screen (the caller's key makes a new one when it changes).
  const [store] = useState(() => createOptionsStore(api, portalId, moduleId, fieldId));
  return <OptionsBody store={store} onClose={onClose} />;
}

/**
 * A pick list's or multi-select's options, administered offline: listed in order with how many
 * mirrored records use each and their queued changes; added several at once (each typed line
 * checked by the shared rules first), renamed in place, moved up or down, and removed after a
 * preview of the records that lose them. Needs an ApiContext provider above it.
 */
export function OptionsEditor({
  portalId,
  moduleId,
  fieldId,
  onClose,
}: {
  portalId: string;
  moduleId: string;
  fieldId: string;
  onClose(): void;
}) {
  return (
    <OptionsOf
      key={`${portalId}/${moduleId}/${fieldId}`}
      portalId={portalId}
      moduleId={moduleId}
      fieldId={fieldId}
      onClose={onClose}
    />
  );
}
