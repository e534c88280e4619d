import { useId, useState } from 'react';
import type { ConfigModules, ModuleState } from '../../../../shared/ipc/areas/configure';
import { useConfigure } from './ConfigureContext';
import { ModuleForm } from './ModuleForm';
import { ModuleRow } from './ModuleRow';
import { newModuleSettings, othersOf } from './moduleDraft';

const GROUPS: { state: ModuleState; label: string; empty: string; hint?: string }[] = [
  { state: 'active', label: 'Active', empty: 'No active modules.' },
  {
    state: 'inactive',
    label: 'Inactive',
    empty: 'No inactive modules.',
    hint: 'Their records stay readable; nobody can add to them until they are activated.',
  },
  {
    state: 'trashed',
    label: 'Module bin',
    empty: 'The bin is empty.',
    hint: 'Modules moved to the bin from this computer. Recover one, or delete it for good with its records.',
  },
];

function NewModule({ modules }: { modules: ConfigModules }) {
  const create = useConfigure((state) => state.create);
  const error = useConfigure((state) => state.errors.create);
  const busy = useConfigure((state) => state.busy.create ?? false);
  const clearError = useConfigure((state) => state.clearError);
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  /** Set once the form closed: the button it came from takes the keyboard back (not the body). */
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
            setCreated(null);
            setOpen(true);
          }}
        >
          New module
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
    <div className="configure-new card">
      <ModuleForm
        module={null}
        projects={modules.projects}
        others={othersOf(modules, null)}
        error={error}
        busy={busy}
        onCancel={() => {
          clearError('create');
          close();
        }}
        onSubmit={async (draft) => {
          const module = await create(newModuleSettings(draft));
          if (!module) return false;
          setCreated(module.pluralName);
          close();
          return true;
        }}
      />
    </div>
  );
}

/** A portal's modules by where they are (active, inactive, in the bin), and a new one. */
export function ModulesPanel({ modules }: { modules: ConfigModules }) {
  const ids = useId();
  return (
    <section className="card configure-modules" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Modules</h2>
      <NewModule modules={modules} />
      {GROUPS.map((group) => {
        const list = modules.modules.filter((module) => module.state === group.state);
        return (
          <section
            key={group.state}
            className={`configure-group configure-group--${group.state}`}
            aria-labelledby={`${ids}-${group.state}`}
          >
            <h3 id={`${ids}-${group.state}`}>
              {group.label} <span className="muted">({list.length})</span>
            </h3>
            {group.hint && <p className="hint configure-form__note">{group.hint}</p>}
            {list.length === 0 ? (
              <p className="muted">{group.empty}</p>
            ) : (
              <ul className="configure-list">
                {list.map((module) => (
                  <ModuleRow key={module.id} module={module} projects={modules.projects} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </section>
  );
}
