import { useId, useState, type FormEvent } from 'react';
import type { ModuleNames, ModuleProblems } from '../../../../shared/configRules/moduleRules';
import type { ConfigModule } from '../../../../shared/ipc/areas/configure';
import {
  EMPTY_DRAFT,
  changesOf,
  controlOf,
  draftOf,
  draftProblems,
  firstInvalid,
  type ControlKey,
  type ModuleDraft,
} from './moduleDraft';

export interface ProjectChoice {
  id: string;
  name: string | null;
}

/** Problems shown by control: a control's own once touched, every one after a submit. */
function shownProblems(
  problems: ModuleProblems,
  touched: ReadonlySet<ControlKey>,
  submitted: boolean,
): Partial<Record<ControlKey, string>> {
  const shown: Partial<Record<ControlKey, string>> = {};
  for (const [key, text] of Object.entries(problems)) {
    const control = controlOf(key as keyof ModuleProblems);
    if ((submitted || touched.has(control)) && shown[control] === undefined) shown[control] = text;
  }
  return shown;
}

/**
 * A module's settings, new or existing: every problem next to its control as the user types (in
 * the shared rules' words), focus on the first on a submit with problems, nothing sent then; the
 * engine's refusal beside the submit button.
 */
export function ModuleForm({
  module,
  projects,
  others,
  error,
  busy,
  onSubmit,
  onCancel,
}: {
  /** Null: a new module. */
  module: ConfigModule | null;
  projects: readonly ProjectChoice[];
  others: readonly ModuleNames[];
  /** The engine's refusal of the last submit, in its words. */
  error: string | undefined;
  busy: boolean;
  /** Resolves true once queued (the form closes). */
  onSubmit(draft: ModuleDraft): Promise<boolean>;
  onCancel(): void;
}) {
  const creating = module === null;
  const [draft, setDraft] = useState<ModuleDraft>(() => (module ? draftOf(module) : EMPTY_DRAFT));
  const [touched, setTouched] = useState<ReadonlySet<ControlKey>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const ids = useId();
  const problems = draftProblems(draft, module, others);
  const shown = shownProblems(problems, touched, submitted);
  const unchanged = module !== null && Object.keys(changesOf(draft, module)).length === 0;
  const builtIn = module?.builtIn ?? false;

  const change = (control: ControlKey, patch: Partial<ModuleDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setTouched((current) => (current.has(control) ? current : new Set([...current, control])));
  };
  const problemId = (control: ControlKey) => `${ids}-${control}-problem`;
  /** The attributes tying a control to its problem (and to a hint, when it has one). */
  const described = (control: ControlKey, hint?: string) => {
    const problem = shown[control];
    const describedBy = [problem ? problemId(control) : null, hint ?? null].filter(Boolean);
    return {
      // A submit with problems focuses the first control so marked, in screen order.
      'data-control': control,
      'aria-invalid': problem ? true : undefined,
      'aria-describedby': describedBy.length > 0 ? describedBy.join(' ') : undefined,
    };
  };
  const problemText = (control: ControlKey) =>
    shown[control] ? (
      <p id={problemId(control)} className="configure-field__problem">
        {shown[control]}
      </p>
    ) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || unchanged) return;
    setSubmitted(true);
    const first = firstInvalid(problems);
    if (first) {
      event.currentTarget
        .querySelector<HTMLElement>(`[data-control="${first}"]:not([disabled])`)
        ?.focus();
      return;
    }
    if (await onSubmit(draft)) {
      setDraft(module ? draftOf(module) : EMPTY_DRAFT);
      setTouched(new Set());
      setSubmitted(false);
    }
  };

  const titleId = `${ids}-title`;
  const nameHint = builtIn ? `${ids}-builtin` : undefined;
  const title = creating ? 'New module' : `Edit ${module.pluralName}`;
  return (
    <form
      className="configure-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <h3 id={titleId}>{title}</h3>
      {builtIn && (
        <p id={nameHint} className="hint configure-form__note">
          One of the product&apos;s own modules: its names cannot be changed.
        </p>
      )}
      <div className="configure-form__names">
        <div className="configure-field">
          <label htmlFor={`${ids}-singular`}>Singular name</label>
          <input
            id={`${ids}-singular`}
            value={draft.singularName}
            readOnly={builtIn}
            autoComplete="off"
            onChange={(event) => change('singularName', { singularName: event.target.value })}
            {...described('singularName', nameHint)}
          />
          {problemText('singularName')}
        </div>
        <div className="configure-field">
          <label htmlFor={`${ids}-plural`}>Plural name</label>
          <input
            id={`${ids}-plural`}
            value={draft.pluralName}
            readOnly={builtIn}
            autoComplete="off"
            onChange={(event) => change('pluralName', { pluralName: event.target.value })}
            {...described('pluralName', nameHint)}
          />
          {problemText('pluralName')}
        </div>
        <div className="configure-field">
          <label htmlFor={`${ids}-icon`}>Icon (optional)</label>
          <input
            id={`${ids}-icon`}
            value={draft.iconClass}
            autoComplete="off"
            placeholder="The service's icon class"
            onChange={(event) => change('iconClass', { iconClass: event.target.value })}
            {...described('iconClass')}
          />
          {problemText('iconClass')}
        </div>
      </div>

      {creating ? (
        <fieldset className="segmented">
          <legend>Records of this module are</legend>
          <label>
            <input
              type="radio"
              name={`${ids}-scope`}
              checked={draft.isGlobal}
              onChange={() => change('projects', { isGlobal: true })}
            />
            <span>Global (one list for the portal)</span>
          </label>
          <label>
            <input
              type="radio"
              name={`${ids}-scope`}
              checked={!draft.isGlobal}
              onChange={() => change('projects', { isGlobal: false })}
            />
            <span>Per project</span>
          </label>
        </fieldset>
      ) : (
        <p className="muted configure-form__note">
          {module.isGlobal
            ? 'Global: one list of records for the portal (fixed once created).'
            : 'Per project: records belong to a project (fixed once created).'}
        </p>
      )}

      {!draft.isGlobal && (
        <fieldset className="configure-projects">
          <legend>Projects</legend>
          <label className="settings-check">
            <input
              type="checkbox"
              checked={draft.isAllProjects}
              onChange={(event) => change('projects', { isAllProjects: event.target.checked })}
              {...described('projects')}
            />
            All projects
          </label>
          {!draft.isAllProjects &&
            (projects.length === 0 ? (
              <p className="muted configure-form__note">
                No projects are mirrored yet: choose &quot;All projects&quot;, or sync the portal
                first.
              </p>
            ) : (
              <div className="configure-projects__list">
                {projects.map((project) => (
                  <label key={project.id} className="settings-check">
                    <input
                      type="checkbox"
                      checked={draft.projects.includes(project.id)}
                      onChange={(event) =>
                        change('projects', {
                          projects: event.target.checked
                            ? [...draft.projects, project.id]
                            : draft.projects.filter((id) => id !== project.id),
                        })
                      }
                      {...described('projects')}
                    />
                    {project.name ?? `Project ${project.id}`}
                  </label>
                ))}
              </div>
            ))}
          {problemText('projects')}
        </fieldset>
      )}

      <div className="configure-field">
        <label className="settings-check">
          <input
            type="checkbox"
            checked={draft.isOverviewNeeded}
            onChange={(event) =>
              change('isOverviewNeeded', { isOverviewNeeded: event.target.checked })
            }
            {...described('isOverviewNeeded')}
          />
          Show an overview page for each record
        </label>
        {problemText('isOverviewNeeded')}
      </div>

      <fieldset className="segmented">
        <legend>Default layout type</legend>
        {(['public', 'private'] as const).map((type) => (
          <label key={type}>
            <input
              type="radio"
              name={`${ids}-layout`}
              checked={draft.defaultLayoutType === type}
              onChange={() => change('defaultLayoutType', { defaultLayoutType: type })}
              {...described('defaultLayoutType')}
            />
            <span>{type === 'public' ? 'Public' : 'Private'}</span>
          </label>
        ))}
      </fieldset>
      {problemText('defaultLayoutType')}

      <div className="actions">
        <button
          type="submit"
          className="primary"
          data-control="form"
          disabled={busy || unchanged}
          aria-describedby={error || shown.form ? `${ids}-refusal` : undefined}
        >
          {busy ? 'Queuing…' : creating ? 'Create module' : 'Save changes'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {unchanged && <span className="muted">Nothing changed yet.</span>}
      </div>
      {(shown.form ?? error) && (
        <p id={`${ids}-refusal`} className="error configure-form__refusal" role="alert">
          {shown.form ?? error}
        </p>
      )}
    </form>
  );
}
