import { useId, useState } from 'react';
import { PendingChanges } from './PendingChanges';
import { deleteConfirmationProblem } from '../../../../shared/configRules/moduleRules';
import type { ConfigModule } from '../../../../shared/ipc/areas/configure';
import { useConfigure } from './ConfigureContext';
import { TypedNameConfirmation } from './TypedNameConfirmation';
import { ModuleForm, type ProjectChoice } from './ModuleForm';
import { changesOf, othersOf } from './moduleDraft';
import { blockedReason, recordsText, scopeText, type ModuleAction } from './moduleFormat';

/** "Delete permanently": the user types the plural name; nothing is asked until it matches. */
function DeleteConfirmation({ module, onCancel }: { module: ConfigModule; onCancel(): void }) {
  const remove = useConfigure((state) => state.remove);
  const error = useConfigure((state) => state.errors[`delete:${module.id}`]);
  const busy = useConfigure((state) => state.busy[`delete:${module.id}`] ?? false);
  return (
    <TypedNameConfirmation
      label={`Delete ${module.pluralName} permanently`}
      name={module.pluralName}
      problemOf={(typed) => deleteConfirmationProblem(typed, module.pluralName)}
      submitLabel="Delete permanently"
      busy={busy}
      error={error}
      onConfirm={(typed) => void remove(module.id, typed).then((queued) => queued && onCancel())}
      onCancel={onCancel}
    >
      <p>
        Delete <strong>{module.pluralName}</strong> for good?{' '}
        {module.records === 1
          ? 'Its 1 mirrored record goes with it, '
          : `Its ${module.records.toLocaleString()} mirrored records go with it, `}
        here and on the service once sent. This cannot be undone after it is sent.
      </p>
    </TypedNameConfirmation>
  );
}

type Opened = 'edit' | 'trash' | 'delete' | null;

/** The mirror's projects, plus any the module is on that the mirror has not listed. */
function withOwnProjects(
  projects: readonly ProjectChoice[],
  module: ConfigModule,
): ProjectChoice[] {
  const known = new Set(projects.map((project) => project.id));
  return [
    ...projects,
    ...module.projects
      .filter((project) => !known.has(project.id))
      .map(({ id, name }) => ({ id, name })),
  ];
}

/** One module: what it is, what is queued for it, and what may be done with it. */
export function ModuleRow({
  module,
  projects,
}: {
  module: ConfigModule;
  projects: readonly ProjectChoice[];
}) {
  const { update, setActive, trash, recover, clearError } = useConfigure((state) => state);
  const modules = useConfigure((state) => state.modules);
  const error = useConfigure((state) => state.errors[`module:${module.id}`]);
  const busy = useConfigure((state) => state.busy[`module:${module.id}`] ?? false);
  const editError = useConfigure((state) => state.errors[`edit:${module.id}`]);
  const editBusy = useConfigure((state) => state.busy[`edit:${module.id}`] ?? false);
  const [opened, setOpened] = useState<Opened>(null);
  const ids = useId();
  const trashed = module.state === 'trashed';

  const open = (next: Opened) => {
    clearError(`module:${module.id}`);
    clearError(`edit:${module.id}`);
    clearError(`delete:${module.id}`);
    setOpened(next);
  };

  const reasons = new Map<ModuleAction, string>();
  for (const action of ['edit', 'deactivate', 'trash', 'recover', 'delete'] as const) {
    const reason = blockedReason(module, action);
    if (reason) reasons.set(action, reason);
  }
  const reasonId = `${ids}-reason`;
  /** A button that says why it is disabled, to the eye and to assistive technology. */
  const blockable = (action: ModuleAction) => {
    const reason = reasons.get(action);
    return {
      disabled: busy || reason !== undefined,
      title: reason,
      'aria-describedby': reason ? reasonId : undefined,
    };
  };
  const shownReasons = [...new Set(reasons.values())];

  return (
    <li
      className={`configure-module is-${module.state}`}
      aria-labelledby={`${ids}-name`}
      data-testid={`module-${module.id}`}
    >
      <div className="configure-module__head">
        <h4 id={`${ids}-name`}>{module.pluralName}</h4>
        <span className="muted">one {module.singularName}</span>
        {module.builtIn && <span className="configure-badge">Built-in</span>}
        <span className="configure-badge configure-badge--muted">{scopeText(module)}</span>
      </div>
      <p className="configure-module__facts muted">
        API name:{' '}
        {module.apiName === null || module.localOnly ? (
          <em>not created yet</em>
        ) : (
          <code>{module.apiName}</code>
        )}
        {' · '}
        {trashed
          ? `${recordsText(module.records)} when it was moved to the bin`
          : `${recordsText(module.records)} in the mirror`}
        {trashed &&
          module.trashedTime &&
          ` · in the bin since ${new Date(module.trashedTime).toLocaleString()}`}
      </p>
      <PendingChanges name={module.pluralName} pending={module.pending} />

      <div className="actions configure-module__actions">
        {trashed ? (
          <>
            <button
              type="button"
              {...blockable('recover')}
              onClick={() => {
                open(null);
                void recover(module.id);
              }}
            >
              Recover
            </button>
            <button
              type="button"
              className="danger"
              {...blockable('delete')}
              aria-expanded={opened === 'delete'}
              onClick={() => open(opened === 'delete' ? null : 'delete')}
            >
              Delete permanently…
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              {...blockable('edit')}
              aria-expanded={opened === 'edit'}
              onClick={() => open(opened === 'edit' ? null : 'edit')}
            >
              Edit
            </button>
            <button
              type="button"
              {...blockable('deactivate')}
              onClick={() => {
                open(null);
                void setActive(module.id, module.state !== 'active');
              }}
            >
              {module.state === 'active' ? 'Deactivate' : 'Activate'}
            </button>
            <button
              type="button"
              className="danger"
              {...blockable('trash')}
              aria-expanded={opened === 'trash'}
              onClick={() => open(opened === 'trash' ? null : 'trash')}
            >
              Move to bin…
            </button>
          </>
        )}
      </div>
      {shownReasons.length > 0 && (
        <p id={reasonId} className="hint configure-form__note">
          {shownReasons.join(' ')}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}

      {opened === 'trash' && (
        <div
          className="configure-confirm"
          role="group"
          aria-label={`Move ${module.pluralName} to the bin`}
        >
          <span>
            Move {module.pluralName} to the module bin? The service keeps its records; you can
            recover it from the bin.
          </span>
          <button
            type="button"
            className="primary danger"
            disabled={busy}
            onClick={() => {
              setOpened(null);
              void trash(module.id);
            }}
          >
            Move to bin
          </button>
          <button type="button" onClick={() => setOpened(null)}>
            Keep it
          </button>
        </div>
      )}
      {opened === 'delete' && (
        <DeleteConfirmation module={module} onCancel={() => setOpened(null)} />
      )}
      {opened === 'edit' && (
        <ModuleForm
          module={module}
          projects={withOwnProjects(projects, module)}
          others={othersOf(modules, module.id)}
          error={editError}
          busy={editBusy}
          onCancel={() => open(null)}
          onSubmit={async (draft) => {
            const answer = await update(module.id, changesOf(draft, module));
            if (answer) setOpened(null);
            return answer !== null;
          }}
        />
      )}
    </li>
  );
}
