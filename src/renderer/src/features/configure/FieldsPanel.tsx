import './fields.css';
import { useEffect, useId, useState } from 'react';
import { useStore } from 'zustand';
import { useApi } from '../../bridge/ApiContext';
import { FieldForm } from './FieldForm';
import { FieldRow } from './FieldRow';
import { newFieldSettings } from './fieldDraft';
import { createFieldsStore, type FieldsStore } from './fieldsStore';

/** The new field form (opened from a button), placed on a layout the user picks. */
function NewField({ store }: { store: FieldsStore }) {
  const fields = useStore(store, (state) => state.fields);
  const layouts = useStore(store, (state) => state.layouts);
  const layoutsError = useStore(store, (state) => state.errors.layouts);
  const create = useStore(store, (state) => state.create);
  const clearError = useStore(store, (state) => state.clearError);
  const error = useStore(store, (state) => state.errors.create);
  const busy = useStore(store, (state) => state.busy.create ?? false);
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  /** Set once the form closed: the button it came from takes the keyboard back. */
  const [closed, setClosed] = useState(false);
  const close = () => {
    setClosed(true);
    setOpen(false);
  };

  if (!open) {
    return (
      <div className="configure-new">
        <button
          type="button"
          className="primary"
          autoFocus={closed}
          onClick={() => {
            clearError('create');
            setDone(null);
            setOpen(true);
          }}
        >
          New field
        </button>
        {done && (
          <span className="muted" role="status">
            {done}
          </span>
        )}
      </div>
    );
  }
  return (
    <div className="configure-new card">
      <FieldForm
        field={null}
        layouts={layouts}
        layoutsError={layoutsError}
        others={(fields?.fields ?? []).map(({ id, label }) => ({ id, label }))}
        error={error}
        busy={busy}
        onCancel={close}
        onSubmit={async (draft) => {
          const queued = await create({
            type: draft.type,
            settings: newFieldSettings(draft),
            layoutId: draft.layoutId,
            sectionId: draft.sectionId === '' ? null : draft.sectionId,
          });
          if (queued) {
            setDone(`${draft.label.trim()} is queued; it is created when the Outbox sends it.`);
            close();
          }
          return queued;
        }}
      />
    </div>
  );
}

function FieldsBody({ store }: { store: FieldsStore }) {
  const fields = useStore(store, (state) => state.fields);
  const loadError = useStore(store, (state) => state.errors.load);
  const reload = useStore(store, (state) => state.reload);
  const listen = useStore(store, (state) => state.listen);
  const ids = useId();
  useEffect(() => listen(), [listen]);
  useEffect(() => void reload(), [reload]);

  const titleId = `${ids}-title`;
  const others = (fields?.fields ?? []).map(({ id, label }) => ({ id, label }));
  return (
    <section className="configure-fields" aria-labelledby={titleId}>
      <h2 id={titleId}>Fields{fields ? ` of ${fields.module}` : ''}</h2>
      {loadError && (
        <p className="error banner" role="alert">
          <span>The fields could not be read: {loadError}</span>
          <button type="button" onClick={() => void reload()}>
            Try again
          </button>
        </p>
      )}
      {fields === null ? (
        !loadError && <p className="muted">Reading fields…</p>
      ) : (
        <>
          <NewField store={store} />
          {fields.fields.length === 0 ? (
            <p className="muted">This module has no fields yet.</p>
          ) : (
            <div className="fields-table__scroll">
              <table className="data-table fields-table">
                <caption className="muted">
                  {fields.fields.length === 1 ? '1 field' : `${fields.fields.length} fields`}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">API name</th>
                    <th scope="col">Mandatory</th>
                    <th scope="col">PII</th>
                    <th scope="col">Encrypted</th>
                    <th scope="col">Layouts</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {fields.fields.map((field) => (
                    <FieldRow key={field.id} store={store} field={field} others={others} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function FieldsOf({ portalId, moduleId }: { portalId: string; moduleId: string }) {
  const api = useApi();
  // One store per module on screen (the caller's key makes a new one when it changes).
  const [store] = useState(() => createFieldsStore(api, portalId, moduleId));
  return <FieldsBody store={store} />;
}

/**
 * A module's custom fields, administered offline: listed with their settings, layouts and queued
 * changes; created (placed on a layout), edited in place and deleted (where it is used said first,
 * its name typed to confirm), every change checked by the shared rules and queued in the Outbox.
 * Needs an ApiContext provider above it.
 */
export function FieldsPanel({ portalId, moduleId }: { portalId: string; moduleId: string }) {
  return <FieldsOf key={`${portalId}/${moduleId}`} portalId={portalId} moduleId={moduleId} />;
}
