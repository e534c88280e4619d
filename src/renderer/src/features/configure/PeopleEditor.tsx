import './options.css';
import './statuses.css';
import { EditorFrame } from './EditorFrame';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { roleAddProblem, userAddProblem } from '../../../../shared/configRules/peopleRules';
import type { ConfigPeople, ConfigPerson } from '../../../../shared/ipc/areas/configureChoices';
import { useApi } from '../../bridge/ApiContext';
import { createChoicesStore, type ChoicesStore } from './choicesStore';
import { PendingChanges } from './PendingChanges';

/** One change as changePeople takes it (the field is the store's). */
export interface PeopleChange {
  addUsers?: string[];
  addRoles?: string[];
  removeUsers?: string[];
  removeRoles?: string[];
}
type Store = ChoicesStore<ConfigPeople, PeopleChange>;
type Kind = 'user' | 'role';

const LIST_TYPE: Record<string, string> = {
  all_users: 'every user of the portal',
  selected_users: 'the users listed here',
  selected_roles: 'users with the roles listed here',
};
const nameOf = (person: { id: string; name: string | null }) => person.name ?? person.id;

/** The users or the roles of the field, each removable (records keep the values they hold). */
function PeopleList({ store, kind, people }: { store: Store; kind: Kind; people: ConfigPerson[] }) {
  const change = useStore(store, (state) => state.change);
  const error = useStore(store, (state) => state.errors[`remove-${kind}`]);
  const busy = useStore(store, (state) => state.busy[`remove-${kind}`] ?? false);
  const title = kind === 'user' ? 'Users' : 'Roles';
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section className="people-list" aria-labelledby={`${ids}-title`}>
      <h3 ref={heading} id={`${ids}-title`} tabIndex={-1}>
        {title}
      </h3>
      {people.length === 0 ? (
        <p className="muted">{kind === 'user' ? 'No user listed.' : 'No role listed.'}</p>
      ) : (
        <ul aria-label={title}>
          {people.map((person) => (
            <li key={person.id} data-testid={`${kind}-${person.id}`}>
              <span>{nameOf(person)}</span>
              {person.localOnly && (
                <span className="configure-badge configure-badge--muted">Not sent yet</span>
              )}
              <PendingChanges name={nameOf(person)} pending={person.pending} />
              <button
                type="button"
                className="danger"
                disabled={busy}
                aria-label={`Remove ${nameOf(person)}`}
                aria-describedby={error ? `${ids}-refusal` : undefined}
                onClick={() =>
                  void change(`remove-${kind}`, {
                    [kind === 'user' ? 'removeUsers' : 'removeRoles']: [person.id],
                  }).then((queued) => {
                    // The removed entry's button is gone: the keyboard goes to the list's heading.
                    if (queued) heading.current?.focus();
                  })
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={`${ids}-refusal`} className="error configure-form__refusal" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/**
 * A picker of the portal's people (or roles) not yet on the field, several at once: the shared
 * rules judge the chosen ones first (members only, known roles, nothing twice), in words.
 */
function AddPeople({ store, kind, view }: { store: Store; kind: Kind; view: ConfigPeople }) {
  const change = useStore(store, (state) => state.change);
  const error = useStore(store, (state) => state.errors[`add-${kind}`]);
  const busy = useStore(store, (state) => state.busy[`add-${kind}`] ?? false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const select = useRef<HTMLSelectElement>(null);
  const ids = useId();
  const held = kind === 'user' ? view.users : view.roles;
  const pool = kind === 'user' ? view.members : view.offeredRoles;
  const choices = pool.filter((person) => !held.some((h) => h.id === person.id));
  const problem =
    chosen.length === 0
      ? tried
        ? `Choose at least one ${kind}.`
        : null
      : (chosen
          .map((id) =>
            kind === 'user'
              ? userAddProblem(id, view.members, held)
              : roleAddProblem(id, view.offeredRoles, held),
          )
          .find((found) => found !== null) ?? null);
  const label = kind === 'user' ? 'Add users' : 'Add roles';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    if (chosen.length === 0 || problem) {
      select.current?.focus();
      return;
    }
    if (await change(`add-${kind}`, { [kind === 'user' ? 'addUsers' : 'addRoles']: chosen })) {
      setChosen([]);
      setTried(false);
    }
  };

  return (
    <form
      className="options-add"
      aria-label={label}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <div className="configure-field">
        <label htmlFor={`${ids}-pick`}>
          {kind === 'user' ? 'Portal people not listed' : 'Portal roles not listed'}
        </label>
        {pool.length === 0 && kind === 'role' ? (
          <p className="hint">
            The portal’s roles are not known here yet; they are read with a user field’s options
            when the portal is synced online.
          </p>
        ) : (
          <select
            ref={select}
            id={`${ids}-pick`}
            multiple
            size={Math.min(6, Math.max(2, choices.length))}
            value={chosen}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${ids}-problem` : `${ids}-hint`}
            onChange={(event) => {
              setChosen([...event.target.selectedOptions].map((option) => option.value));
              setTried(false);
            }}
          >
            {choices.map((person) => (
              <option key={person.id} value={person.id}>
                {nameOf(person)}
              </option>
            ))}
          </select>
        )}
        {problem ? (
          <p id={`${ids}-problem`} className="configure-field__problem">
            {problem}
          </p>
        ) : (
          <p id={`${ids}-hint`} className="hint configure-form__note">
            {choices.length === 0
              ? `Every ${kind} known here is listed.`
              : 'Choose one or more (Ctrl or Shift for several).'}
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
          {busy ? 'Queuing…' : label}
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

function PeopleBody({ store, onClose }: { store: Store; onClose(): void }) {
  const view = useStore(store, (state) => state.view);
  const loadError = useStore(store, (state) => state.errors.load);
  const reload = useStore(store, (state) => state.reload);
  const listen = useStore(store, (state) => state.listen);
  useEffect(() => listen(), [listen]);
  useEffect(() => void reload(), [reload]);
  return (
    <EditorFrame
      title={`Users and roles${view ? ` of ${view.field}` : ''}`}
      what="users and roles"
      value={view}
      loadError={loadError}
      onReload={() => void reload()}
      onClose={onClose}
    >
      {(view) => (
        <>
          <p className="hint">
            {view.userListType && LIST_TYPE[view.userListType]
              ? `This field offers ${LIST_TYPE[view.userListType]}. `
              : ''}
            Removing a user or a role leaves the records’ values as they are.
          </p>
          <div className="people-lists">
            <div>
              <PeopleList store={store} kind="user" people={view.users} />
              <AddPeople store={store} kind="user" view={view} />
            </div>
            <div>
              <PeopleList store={store} kind="role" people={view.roles} />
              <AddPeople store={store} kind="role" view={view} />
            </div>
          </div>
        </>
      )}
    </EditorFrame>
  );
}

function PeopleOf({
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
  const [store] = useState(() =>
    createChoicesStore<ConfigPeople, PeopleChange>(
      api,
      portalId,
      () => api.configure.fieldPeople({ portalId, moduleId, fieldId }),
      (change) => api.configure.changePeople({ portalId, moduleId, fieldId, ...change }),
    ),
  );
  return <PeopleBody store={store} onClose={onClose} />;
}

/**
 * The users and roles a user pick list or multi-user field may pick, administered offline: each
 * list with its queued changes, added from pickers of the portal's people and roles (checked by
 * the shared rules first), removed one by one (records keep their values). Needs an ApiContext.
 */
export function PeopleEditor({
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
    <PeopleOf
      key={`${portalId}/${moduleId}/${fieldId}`}
      portalId={portalId}
      moduleId={moduleId}
      fieldId={fieldId}
      onClose={onClose}
    />
  );
}
