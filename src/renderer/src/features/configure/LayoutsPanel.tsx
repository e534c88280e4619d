import './layouts.css';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { layoutNameProblem } from '../../../../shared/configRules/layoutRules';
import type { ConfigLayouts } from '../../../../shared/ipc/areas/configure';
import { LayoutPreview } from './LayoutPreview';
import { LayoutRow } from './LayoutRow';
import { LayoutSections } from './LayoutSections';
import { LayoutsContext, useLayouts, useLayoutsStore } from './LayoutsContext';
import type { LayoutType } from './layoutsStore';

/** "New layout": a name checked as typed, a type, and optionally a layout to copy. */
function NewLayout({ layouts, defaultType }: { layouts: ConfigLayouts; defaultType: LayoutType }) {
  const create = useLayouts((state) => state.create);
  const error = useLayouts((state) => state.errors.create);
  const busy = useLayouts((state) => state.busy.create ?? false);
  const clearError = useLayouts((state) => state.clearError);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [type, setType] = useState<LayoutType>(defaultType);
  const [referenceId, setReferenceId] = useState('');
  const [touched, setTouched] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  // Closed from the form (Cancel, Escape, created): the focus goes back to "New layout".
  const [focusBack, setFocusBack] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const ids = useId();
  const problem = layoutNameProblem(name, layouts.layouts);
  const shown = touched ? problem : null;

  const close = () => {
    clearError('create');
    setOpen(false);
    setName('');
    setReferenceId('');
    setTouched(false);
    setFocusBack(true);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setTouched(true);
    if (problem !== null) {
      nameInput.current?.focus();
      return;
    }
    const answer = await create({
      name: name.trim(),
      type,
      referenceId: referenceId === '' ? null : referenceId,
    });
    if (!answer) return;
    setCreated(name.trim());
    close();
  };

  if (!open) {
    return (
      <div className="configure-new">
        <button
          type="button"
          className="primary"
          autoFocus={focusBack}
          onClick={() => {
            setCreated(null);
            setType(defaultType);
            setOpen(true);
          }}
        >
          New layout
        </button>
        {created && (
          <span className="muted" role="status">
            {created} is queued: it shows below and is created when sent.
          </span>
        )}
      </div>
    );
  }
  return (
    <form
      className="configure-new card configure-form"
      aria-labelledby={`${ids}-title`}
      noValidate
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => event.key === 'Escape' && close()}
    >
      <h4 id={`${ids}-title`}>New layout of {layouts.module}</h4>
      <div className="configure-form__names">
        <div className="configure-field">
          <label htmlFor={`${ids}-name`}>Layout name</label>
          <input
            ref={nameInput}
            id={`${ids}-name`}
            value={name}
            autoComplete="off"
            // Opened by the user's own click: the field they are about to type in.
            autoFocus
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${ids}-problem` : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setTouched(true);
            }}
          />
          {shown && (
            <p id={`${ids}-problem`} className="configure-field__problem">
              {shown}
            </p>
          )}
        </div>
        <div className="configure-field">
          <label htmlFor={`${ids}-reference`}>Copy sections and fields from</label>
          <select
            id={`${ids}-reference`}
            value={referenceId}
            onChange={(event) => setReferenceId(event.target.value)}
          >
            <option value="">No layout: start empty</option>
            {layouts.layouts.map((layout) => (
              <option key={layout.id} value={layout.id}>
                {layout.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="segmented">
        <legend>Type</legend>
        {(['public', 'private'] as const).map((choice) => (
          <label key={choice}>
            <input
              type="radio"
              name={`${ids}-type`}
              checked={type === choice}
              onChange={() => setType(choice)}
            />
            <span>{choice === 'public' ? 'Public' : 'Private'}</span>
          </label>
        ))}
      </fieldset>
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={busy}
          aria-describedby={error ? `${ids}-refusal` : undefined}
        >
          {busy ? 'Queuing…' : 'Create layout'}
        </button>
        <button type="button" onClick={close}>
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

function ModulePicker() {
  const modules = useLayouts((state) => state.modules);
  const moduleId = useLayouts((state) => state.moduleId);
  const selectModule = useLayouts((state) => state.selectModule);
  const ids = useId();
  if (modules === null) return null;
  if (modules.length === 0) {
    return <p className="muted">No active modules: activate one in Modules to lay out its form.</p>;
  }
  return (
    <div className="configure-view__bar">
      <label htmlFor={`${ids}-module`}>Module</label>
      <select
        id={`${ids}-module`}
        value={moduleId ?? ''}
        onChange={(event) => void selectModule(event.target.value)}
      >
        {modules.map((module) => (
          <option key={module.id} value={module.id}>
            {module.pluralName}
          </option>
        ))}
      </select>
    </div>
  );
}

function ModuleLayouts({ layouts }: { layouts: ConfigLayouts }) {
  const selectedLayoutId = useLayouts((state) => state.selectedLayoutId);
  const defaultType = useLayouts(
    (state) =>
      state.modules?.find((module) => module.id === state.moduleId)?.defaultLayoutType ?? 'public',
  );
  const selected = layouts.layouts.find((layout) => layout.id === selectedLayoutId) ?? null;
  return (
    <>
      <NewLayout
        // A new form per module: a name typed for one is not offered to another.
        key={layouts.moduleId}
        layouts={layouts}
        defaultType={defaultType}
      />
      {layouts.layouts.length === 0 ? (
        <p className="muted">{layouts.module} has no layouts yet.</p>
      ) : (
        <ul className="configure-list" aria-label={`Layouts of ${layouts.module}`}>
          {layouts.layouts.map((layout) => (
            <LayoutRow
              key={layout.id}
              layout={layout}
              layouts={layouts.layouts}
              selected={layout.id === selectedLayoutId}
            />
          ))}
        </ul>
      )}
      {selected && (
        <div className="layouts-workbench">
          <LayoutSections layout={selected} />
          <LayoutPreview layout={selected} />
        </div>
      )}
    </>
  );
}

function Panel({ portalId, moduleId }: { portalId: string; moduleId: string | null }) {
  const open = useLayouts((state) => state.open);
  const layouts = useLayouts((state) => state.layouts);
  const modulesError = useLayouts((state) => state.errors.modules);
  const loadError = useLayouts((state) => state.errors.load);
  const chosen = useLayouts((state) => state.moduleId);
  const ids = useId();
  useEffect(() => void open(portalId, moduleId), [open, portalId, moduleId]);
  return (
    <section className="card configure-modules layouts-panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Layouts</h2>
      <p className="hint configure-form__note">
        A layout arranges a module&apos;s fields in sections: it is the form a record opens with.
      </p>
      {modulesError && (
        <p className="error banner" role="alert">
          The modules could not be read: {modulesError}
        </p>
      )}
      <ModulePicker />
      {loadError && (
        <p className="error banner" role="alert">
          The layouts could not be read: {loadError}
        </p>
      )}
      {layouts
        ? layouts.moduleId === chosen && <ModuleLayouts layouts={layouts} />
        : chosen !== null && !loadError && <p className="muted">Reading layouts…</p>}
    </section>
  );
}

/**
 * The Layouts panel: one module's layouts (picked among the portal's active modules), their
 * sections and placed fields, and a live preview of the record form. Every change is checked by
 * the shared rules, queued in the Outbox, and shown at once. Uses the LayoutsContext's store when
 * one is provided, else a store of its own created from the ApiContext's api.
 */
export function LayoutsPanel({
  portalId,
  moduleId = null,
}: {
  portalId: string;
  /** The module shown first; the panel's picker changes it. Null: the first active module. */
  moduleId?: string | null;
}) {
  const store = useLayoutsStore();
  return (
    <LayoutsContext.Provider value={store}>
      <Panel portalId={portalId} moduleId={moduleId} />
    </LayoutsContext.Provider>
  );
}
