import { useEffect, useId, useRef, useState } from 'react';
import { sectionNameProblem } from '../../../../shared/configRules/layoutRules';
import type {
  ConfigLayout,
  ConfigSection,
  PlacedField,
} from '../../../../shared/ipc/areas/configure';
import { InlineNameForm } from './InlineNameForm';
import {
  AddFieldPicker,
  FieldMoveControls,
  focusMovedField,
  type FieldMoved,
} from './FieldPlacement';
import { sectionDeleteBlocked, sectionDeleteNote } from './layoutFormat';
import { useLayouts } from './LayoutsContext';

/**
 * A placed field: its label and type, moved up, down or to another section; a field not of the
 * system's may be taken off (asked).
 */
function FieldItem({
  layout,
  field,
  section,
  index,
  onMoved,
}: {
  layout: ConfigLayout;
  field: PlacedField;
  section: ConfigSection;
  index: number;
  onMoved(moved: FieldMoved): void;
}) {
  const removeField = useLayouts((state) => state.removeField);
  const clearError = useLayouts((state) => state.clearError);
  const place = `field:${layout.id}:${field.key}` as const;
  const error = useLayouts((state) => state.errors[place]);
  const busy = useLayouts((state) => state.busy[place] ?? false);
  const [asking, setAsking] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const ids = useId();
  const close = () => {
    setAsking(false);
    trigger.current?.focus();
  };
  return (
    <li className="layouts-field" aria-labelledby={`${ids}-label`}>
      <span id={`${ids}-label`}>{field.label}</span>{' '}
      <span className="muted layouts-field__type">{field.type}</span>
      {field.system ? (
        <span className="configure-badge configure-badge--muted">System</span>
      ) : field.key.startsWith('tmp-f-') ? (
        // Taken off by its API name, which the service gives when it creates it.
        <em className="muted">not created yet</em>
      ) : (
        <button
          ref={trigger}
          type="button"
          className="layouts-small"
          disabled={busy}
          aria-expanded={asking}
          aria-describedby={error ? `${ids}-refusal` : undefined}
          onClick={() => {
            clearError(place);
            setAsking(!asking);
          }}
        >
          Remove from layout…
        </button>
      )}
      <FieldMoveControls
        layout={layout}
        section={section}
        index={index}
        field={field}
        onMoved={onMoved}
      />
      {asking && (
        <div
          className="configure-confirm"
          role="group"
          aria-label={`Remove ${field.label} from ${layout.name}`}
          onKeyDown={(event) => event.key === 'Escape' && close()}
        >
          <span>
            Take {field.label} off {layout.name}? Records keep their values of it, and the field
            stays in the module.
          </span>
          <button
            type="button"
            className="primary danger"
            disabled={busy}
            // Opened by the user's own click: the answer they are about to give.
            autoFocus
            onClick={() => {
              setAsking(false);
              void removeField(layout.id, field.key).then(() => trigger.current?.focus());
            }}
          >
            Remove from layout
          </button>
          <button type="button" onClick={close}>
            Keep it
          </button>
        </div>
      )}
      {error && (
        <p id={`${ids}-refusal`} className="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

type Opened = 'rename' | 'delete' | null;

function SectionItem({
  layout,
  section,
  index,
  onMoved,
  onFieldMoved,
}: {
  layout: ConfigLayout;
  section: ConfigSection;
  index: number;
  /** After a move: the section's own button keeps the focus where it lands. */
  onMoved(sectionId: string, direction: 'up' | 'down'): void;
  /** After a field's move: its button keeps the focus where the field lands. */
  onFieldMoved(moved: FieldMoved): void;
}) {
  const { renameSection, moveSection, deleteSection, clearError } = useLayouts((state) => state);
  const module = useLayouts((state) => state.layouts?.module ?? 'the module');
  const renamePlace = `section:${layout.id}:${section.id}` as const;
  const movePlace = `move:${layout.id}:${section.id}` as const;
  const deletePlace = `deleteSection:${layout.id}:${section.id}` as const;
  const renameError = useLayouts((state) => state.errors[renamePlace]);
  const renameBusy = useLayouts((state) => state.busy[renamePlace] ?? false);
  const moveError = useLayouts((state) => state.errors[movePlace]);
  const moveBusy = useLayouts((state) => state.busy[movePlace] ?? false);
  const deleteError = useLayouts((state) => state.errors[deletePlace]);
  const deleteBusy = useLayouts((state) => state.busy[deletePlace] ?? false);
  const [opened, setOpened] = useState<Opened>(null);
  const ids = useId();
  const sections = layout.sections;
  const blocked = sectionDeleteBlocked(sections);
  const open = (next: Opened) => {
    clearError(renamePlace);
    clearError(deletePlace);
    setOpened(next);
  };
  const move = (direction: 'up' | 'down') => {
    // Positions are 1-based: up is the place of the one before, down of the one after.
    const position = direction === 'up' ? index : index + 2;
    void moveSection(layout.id, section.id, position).then(
      (answer) => answer && onMoved(section.id, direction),
    );
  };

  return (
    <li className="layouts-section" aria-labelledby={`${ids}-name`}>
      <div className="layouts-section__head">
        <h5 id={`${ids}-name`}>{section.name}</h5>
        {section.localOnly && <em className="muted">not created yet</em>}
      </div>
      <div className="actions layouts-actions" role="group" aria-label={`${section.name} actions`}>
        <button
          type="button"
          className="layouts-small"
          aria-expanded={opened === 'rename'}
          onClick={() => open(opened === 'rename' ? null : 'rename')}
        >
          Rename
        </button>
        <button
          type="button"
          className="layouts-small"
          data-move={`${section.id}:up`}
          disabled={index === 0 || moveBusy}
          aria-label={`Move up: ${section.name}`}
          aria-describedby={moveError ? `${ids}-move` : undefined}
          onClick={() => move('up')}
        >
          Move up
        </button>
        <button
          type="button"
          className="layouts-small"
          data-move={`${section.id}:down`}
          disabled={index === sections.length - 1 || moveBusy}
          aria-label={`Move down: ${section.name}`}
          aria-describedby={moveError ? `${ids}-move` : undefined}
          onClick={() => move('down')}
        >
          Move down
        </button>
        <button
          type="button"
          className="layouts-small danger"
          disabled={blocked !== null || deleteBusy}
          title={blocked ?? undefined}
          aria-describedby={blocked ? `${ids}-blocked` : undefined}
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
      {moveError && (
        <p id={`${ids}-move`} className="error" role="alert">
          {moveError}
        </p>
      )}
      {opened === 'rename' && (
        <InlineNameForm
          title={`Rename section ${section.name}`}
          label={`New name of ${section.name}`}
          initial={section.name}
          problemOf={(name) => sectionNameProblem(name, sections, section.id)}
          submitLabel="Rename section"
          busy={renameBusy}
          error={renameError}
          autoFocus
          onCancel={() => open(null)}
          onSubmit={async (name) => {
            const answer = await renameSection(layout.id, section.id, name);
            if (answer) setOpened(null);
            return answer !== null;
          }}
        />
      )}
      {opened === 'delete' && (
        <div
          className="configure-confirm"
          role="group"
          aria-label={`Delete section ${section.name}`}
          onKeyDown={(event) => event.key === 'Escape' && open(null)}
        >
          <span>
            Delete the section {section.name} from {layout.name}?{' '}
            {sectionDeleteNote(sections, index)}
          </span>
          <button
            type="button"
            className="primary danger"
            disabled={deleteBusy}
            // Opened by the user's own click: the answer they are about to give.
            autoFocus
            onClick={() => {
              void deleteSection(layout.id, section.id).then((answer) => answer && setOpened(null));
            }}
          >
            Delete section
          </button>
          <button type="button" onClick={() => open(null)}>
            Keep it
          </button>
        </div>
      )}
      {deleteError && (
        <p className="error" role="alert">
          {deleteError}
        </p>
      )}
      {section.fields.length === 0 ? (
        <p className="muted configure-form__note">No fields in this section.</p>
      ) : (
        <ul className="layouts-fields" aria-label={`Fields of ${section.name}`}>
          {section.fields.map((field, place) => (
            <FieldItem
              key={field.key}
              layout={layout}
              field={field}
              section={section}
              index={place}
              onMoved={onFieldMoved}
            />
          ))}
        </ul>
      )}
      <AddFieldPicker layout={layout} section={section} module={module} />
    </li>
  );
}

/** A layout's sections in order: add, rename, move, delete; each with its fields. */
export function LayoutSections({ layout }: { layout: ConfigLayout }) {
  const addSection = useLayouts((state) => state.addSection);
  const error = useLayouts((state) => state.errors[`addSection:${layout.id}`]);
  const busy = useLayouts((state) => state.busy[`addSection:${layout.id}`] ?? false);
  const list = useRef<HTMLOListElement>(null);
  const [moved, setMoved] = useState<{ sectionId: string; direction: 'up' | 'down' } | null>(null);
  const [movedField, setMovedField] = useState<FieldMoved | null>(null);
  useEffect(() => focusMovedField(list.current, movedField), [movedField]);
  const ids = useId();
  // A moved item's button may now be disabled (it reached an end): the other one takes the focus.
  useEffect(() => {
    if (!moved || !list.current) return;
    const other = moved.direction === 'up' ? 'down' : 'up';
    const button = (direction: string) =>
      [...list.current!.querySelectorAll<HTMLButtonElement>('button[data-move]')].find(
        (candidate) => candidate.dataset.move === `${moved.sectionId}:${direction}`,
      );
    const target = [button(moved.direction), button(other)].find(
      (candidate) => candidate && !candidate.disabled,
    );
    target?.focus();
  }, [moved]);

  return (
    <section className="layouts-sections" aria-labelledby={`${ids}-title`}>
      <h4 id={`${ids}-title`}>Sections of {layout.name}</h4>
      <ol ref={list} className="layouts-section-list">
        {layout.sections.map((section, index) => (
          <SectionItem
            key={section.id}
            layout={layout}
            section={section}
            index={index}
            onMoved={(sectionId, direction) => setMoved({ sectionId, direction })}
            onFieldMoved={(field) => setMovedField({ ...field })}
          />
        ))}
      </ol>
      <InlineNameForm
        // A new form per layout: a name typed for one is not offered to another.
        key={layout.id}
        title={`Add a section to ${layout.name}`}
        label="New section name"
        problemOf={(name) => sectionNameProblem(name, layout.sections)}
        submitLabel="Add section"
        busy={busy}
        error={error}
        onSubmit={async (name) => (await addSection(layout.id, name)) !== null}
      />
    </section>
  );
}
