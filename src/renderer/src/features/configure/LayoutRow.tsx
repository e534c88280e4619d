import { useId, useRef, useState } from 'react';
import { PendingChanges } from './PendingChanges';
import { layoutNameProblem } from '../../../../shared/configRules/layoutRules';
import type { ConfigLayout } from '../../../../shared/ipc/areas/configure';
import { InlineNameForm } from './InlineNameForm';
import { layoutDeleteBlocked, layoutTypeText } from './layoutFormat';
import { useLayouts } from './LayoutsContext';

type Opened = 'rename' | 'delete' | null;

/** One layout: what it is, what is queued for it, and what may be done with it. */
export function LayoutRow({
  layout,
  layouts,
  selected,
}: {
  layout: ConfigLayout;
  /** All the module's layouts: a name is unique among them, and the last one stays. */
  layouts: readonly ConfigLayout[];
  /** Its sections and preview are the ones on screen. */
  selected: boolean;
}) {
  const { rename, setType, makeDefault, deleteLayout, selectLayout, clearError } = useLayouts(
    (state) => state,
  );
  const errors = useLayouts((state) => state.errors);
  const busy = useLayouts((state) => state.busy);
  const [opened, setOpened] = useState<Opened>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const ids = useId();
  const id = layout.id;
  const blocked = layoutDeleteBlocked(layout, layouts);
  const otherType = layout.type === 'public' ? 'private' : 'public';

  const open = (next: Opened) => {
    for (const place of [`rename:${id}`, `delete:${id}`] as const) clearError(place);
    setOpened(next);
  };
  /** An error of one control, shown beside it and named by it. */
  const refusal = (place: `${'type' | 'default' | 'delete'}:${string}`) =>
    errors[place] ? (
      <p id={`${ids}-${place.split(':')[0]}`} className="error" role="alert">
        {errors[place]}
      </p>
    ) : null;
  const describedBy = (what: 'type' | 'default' | 'delete', hint?: string) =>
    [errors[`${what}:${id}`] ? `${ids}-${what}` : null, hint ?? null].filter(Boolean).join(' ') ||
    undefined;

  return (
    <li
      className={`configure-module layouts-layout${selected ? ' is-selected' : ''}`}
      aria-labelledby={`${ids}-name`}
      aria-current={selected ? 'true' : undefined}
    >
      <div className="configure-module__head">
        <h4 id={`${ids}-name`}>{layout.name}</h4>
        <span className="configure-badge configure-badge--muted">
          {layoutTypeText(layout.type)}
        </span>
        {layout.isDefault && <span className="configure-badge">Default</span>}
        {layout.localOnly && <em className="muted">not created yet</em>}
      </div>
      <PendingChanges name={layout.name} pending={layout.pending} />

      <div className="actions configure-module__actions">
        <button
          type="button"
          aria-pressed={selected}
          onClick={() => selectLayout(id)}
          aria-label={`Sections and preview of ${layout.name}`}
        >
          Sections and preview
        </button>
        <button
          type="button"
          aria-expanded={opened === 'rename'}
          onClick={() => open(opened === 'rename' ? null : 'rename')}
        >
          Rename
        </button>
        <button
          type="button"
          disabled={busy[`type:${id}`] ?? false}
          aria-describedby={describedBy('type')}
          onClick={() => void setType(id, otherType)}
        >
          {otherType === 'private' ? 'Make private' : 'Make public'}
        </button>
        {!layout.isDefault && (
          <button
            type="button"
            disabled={busy[`default:${id}`] ?? false}
            aria-describedby={describedBy('default')}
            onClick={() => void makeDefault(id)}
          >
            Make default
          </button>
        )}
        <button
          ref={deleteButton}
          type="button"
          className="danger"
          disabled={blocked !== null || (busy[`delete:${id}`] ?? false)}
          title={blocked ?? undefined}
          aria-describedby={describedBy('delete', blocked ? `${ids}-blocked` : undefined)}
          aria-expanded={opened === 'delete'}
          onClick={() => open(opened === 'delete' ? null : 'delete')}
        >
          Delete…
        </button>
      </div>
      {blocked && (
        <p id={`${ids}-blocked`} className="hint configure-form__note">
          {blocked}
        </p>
      )}
      {refusal(`type:${id}`)}
      {refusal(`default:${id}`)}

      {opened === 'rename' && (
        <InlineNameForm
          title={`Rename ${layout.name}`}
          label={`New name of ${layout.name}`}
          initial={layout.name}
          problemOf={(name) => layoutNameProblem(name, layouts, id)}
          submitLabel="Rename layout"
          busy={busy[`rename:${id}`] ?? false}
          error={errors[`rename:${id}`]}
          autoFocus
          onCancel={() => open(null)}
          onSubmit={async (name) => {
            const answer = await rename(id, name);
            if (answer) setOpened(null);
            return answer !== null;
          }}
        />
      )}
      {opened === 'delete' && (
        <div
          className="configure-confirm"
          role="group"
          aria-label={`Delete layout ${layout.name}`}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            open(null);
            deleteButton.current?.focus();
          }}
        >
          <span>
            Delete the layout {layout.name}? Records keep their values; the service refuses it while
            records use it.
          </span>
          <button
            type="button"
            className="primary danger"
            disabled={busy[`delete:${id}`] ?? false}
            // Opened by the user's own click: the answer they are about to give.
            autoFocus
            onClick={() => void deleteLayout(id).then((answer) => answer && setOpened(null))}
          >
            Delete layout
          </button>
          <button
            type="button"
            onClick={() => {
              open(null);
              deleteButton.current?.focus();
            }}
          >
            Keep it
          </button>
        </div>
      )}
      {refusal(`delete:${id}`)}
    </li>
  );
}
