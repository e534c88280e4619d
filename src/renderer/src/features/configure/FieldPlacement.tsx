import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type {
  ConfigField,
  ConfigLayout,
  ConfigSection,
  PlacedField,
} from '../../../../shared/ipc/areas/configure';
import { useLayouts } from './LayoutsContext';

/** Where a moved field's focus goes: the control it was moved with, found again after the move. */
export interface FieldMoved {
  key: string;
  how: 'up' | 'down' | 'section';
}

/**
 * After a move the field's item may be new (another section) or its button disabled (it reached
 * an end): the focus goes to the same control of the field where it is now, else the other one.
 */
export function focusMovedField(root: HTMLElement | null, moved: FieldMoved | null): void {
  if (!root || !moved) return;
  const order = [moved.how, ...(['up', 'down', 'section'] as const).filter((h) => h !== moved.how)];
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('button[data-field-move]')];
  for (const how of order) {
    const button = buttons.find((b) => b.dataset.fieldMove === `${moved.key}:${how}`);
    if (button && !button.disabled) {
      button.focus();
      return;
    }
  }
}

/** "1 (first)", …, "n (last)": the places a field can take among `others` fields. */
function placeChoices(others: number) {
  return Array.from({ length: others + 1 }, (_, index) => {
    const place = index + 1;
    const note =
      others === 0 ? '' : place === 1 ? ' (first)' : place === others + 1 ? ' (last)' : '';
    return { place, label: `${place}${note}` };
  });
}

/** A placed field's Move up, Move down and Move to section…; refusals beside them. */
export function FieldMoveControls({
  layout,
  section,
  index,
  field,
  onMoved,
}: {
  layout: ConfigLayout;
  section: ConfigSection;
  /** Its 0-based place in the section. */
  index: number;
  field: PlacedField;
  onMoved(moved: FieldMoved): void;
}) {
  const placeField = useLayouts((state) => state.placeField);
  const clearError = useLayouts((state) => state.clearError);
  const place = `fieldMove:${layout.id}:${field.key}` as const;
  const error = useLayouts((state) => state.errors[place]);
  const busy = useLayouts((state) => state.busy[place] ?? false);
  const others = layout.sections.filter((candidate) => candidate.id !== section.id);
  const [opened, setOpened] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const [target, setTarget] = useState('');
  const [position, setPosition] = useState(0);
  const ids = useId();
  const targetSection = others.find((candidate) => candidate.id === target) ?? others[0];
  const targetCount = targetSection?.fields.length ?? 0;

  const move = async (sectionId: string, to: number, how: FieldMoved['how']) => {
    const answer = await placeField(
      { layoutId: layout.id, sectionId, position: to },
      { key: field.key, mode: 'move' },
      place,
    );
    if (answer) {
      setOpened(false);
      onMoved({ key: field.key, how });
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !targetSection) return;
    void move(targetSection.id, position || targetCount + 1, 'section');
  };
  const describedBy = error ? `${ids}-refusal` : undefined;
  const cancel = () => {
    setOpened(false);
    trigger.current?.focus();
  };

  return (
    <>
      <span className="actions layouts-actions" role="group" aria-label={`Place of ${field.label}`}>
        <button
          type="button"
          className="layouts-small"
          data-field-move={`${field.key}:up`}
          // Positions are 1-based: up is the place of the one before.
          disabled={index === 0 || busy}
          aria-label={`Move up: ${field.label}`}
          aria-describedby={describedBy}
          onClick={() => void move(section.id, index, 'up')}
        >
          Move up
        </button>
        <button
          type="button"
          className="layouts-small"
          data-field-move={`${field.key}:down`}
          disabled={index === section.fields.length - 1 || busy}
          aria-label={`Move down: ${field.label}`}
          aria-describedby={describedBy}
          onClick={() => void move(section.id, index + 2, 'down')}
        >
          Move down
        </button>
        {others.length > 0 && (
          <button
            ref={trigger}
            type="button"
            className="layouts-small"
            data-field-move={`${field.key}:section`}
            disabled={busy}
            aria-label={`Move to section: ${field.label}`}
            aria-expanded={opened}
            aria-describedby={describedBy}
            onClick={() => {
              clearError(place);
              setTarget(others[0]!.id);
              setPosition(0);
              setOpened(!opened);
            }}
          >
            Move to section…
          </button>
        )}
      </span>
      {opened && targetSection && (
        <form
          className="layouts-name-form"
          aria-label={`Move ${field.label} to another section`}
          onSubmit={submit}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            cancel();
          }}
        >
          <div className="configure-field">
            <label htmlFor={`${ids}-section`}>Section</label>
            <select
              id={`${ids}-section`}
              value={targetSection.id}
              // Opened by the user's own click: the choice they are about to make.
              autoFocus
              onChange={(event) => {
                setTarget(event.target.value);
                setPosition(0);
              }}
            >
              {others.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </select>
          </div>
          <div className="configure-field">
            <label htmlFor={`${ids}-place`}>Place in {targetSection.name}</label>
            <select
              id={`${ids}-place`}
              value={position || targetCount + 1}
              onChange={(event) => setPosition(Number(event.target.value))}
            >
              {placeChoices(targetCount).map((choice) => (
                <option key={choice.place} value={choice.place}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Queuing…' : `Move ${field.label}`}
            </button>
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p id={`${ids}-refusal`} className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** The key a section lists a field by: its API name, or the temporary id of one made here. */
const keyOf = (field: ConfigField) => field.apiName ?? field.id;

/** A section's "Add a field…": the module's fields not on the layout, and the place to put one. */
export function AddFieldPicker({
  layout,
  section,
  module,
}: {
  layout: ConfigLayout;
  section: ConfigSection;
  /** The module's plural name. */
  module: string;
}) {
  const placeField = useLayouts((state) => state.placeField);
  const moduleFields = useLayouts((state) => state.moduleFields);
  const clearError = useLayouts((state) => state.clearError);
  const place = `addField:${layout.id}:${section.id}` as const;
  const error = useLayouts((state) => state.errors[place]);
  const busy = useLayouts((state) => state.busy[place] ?? false);
  const [opened, setOpened] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const [fields, setFields] = useState<ConfigField[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [position, setPosition] = useState(0);
  const ids = useId();
  const onLayout = new Set(layout.sections.flatMap((other) => other.fields.map((f) => f.key)));
  const choices = (fields ?? []).filter((field) => !onLayout.has(keyOf(field)));
  const count = section.fields.length;

  // Read when opened: what is on the layout may have changed since the last time.
  useEffect(() => {
    if (!opened) return;
    let live = true;
    void moduleFields(place).then((answer) => live && setFields(answer ?? []));
    return () => {
      live = false;
    };
  }, [opened, moduleFields, place]);

  const close = () => {
    setOpened(false);
    setChosen('');
    setPosition(0);
    trigger.current?.focus();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const field = choices.find((candidate) => keyOf(candidate) === chosen) ?? choices[0];
    if (busy || !field) return;
    const answer = await placeField(
      { layoutId: layout.id, sectionId: section.id, position: position || count + 1 },
      { key: keyOf(field), mode: 'place' },
      place,
    );
    if (answer) close();
  };

  return (
    <>
      <div className="actions layouts-actions">
        <button
          ref={trigger}
          type="button"
          className="layouts-small"
          aria-expanded={opened}
          aria-describedby={error && !opened ? `${ids}-refusal` : undefined}
          onClick={() => {
            clearError(place);
            if (opened) close();
            else {
              setFields(null);
              setOpened(true);
            }
          }}
        >
          Add a field…
        </button>
      </div>
      {opened && (
        <form
          className="layouts-name-form"
          aria-label={`Add a field to ${section.name}`}
          onSubmit={(event) => void submit(event)}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            close();
          }}
        >
          {fields === null ? (
            <p className="muted" role="status">
              Reading the fields of {module}…
            </p>
          ) : choices.length === 0 ? (
            <p className="muted" role="status">
              Every field of {module} is on {layout.name}.
            </p>
          ) : (
            <>
              <div className="configure-field">
                <label htmlFor={`${ids}-field`}>Field to add</label>
                <select
                  id={`${ids}-field`}
                  value={chosen || keyOf(choices[0]!)}
                  // Opened by the user's own click: the choice they are about to make.
                  autoFocus
                  onChange={(event) => setChosen(event.target.value)}
                >
                  {choices.map((field) => (
                    <option key={field.id} value={keyOf(field)}>
                      {field.label} ({field.type})
                    </option>
                  ))}
                </select>
              </div>
              <div className="configure-field">
                <label htmlFor={`${ids}-place`}>Place in {section.name}</label>
                <select
                  id={`${ids}-place`}
                  value={position || count + 1}
                  onChange={(event) => setPosition(Number(event.target.value))}
                >
                  {placeChoices(count).map((choice) => (
                    <option key={choice.place} value={choice.place}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              </div>
            </>
          )}
          <div className="actions">
            {fields !== null && choices.length > 0 && (
              <button
                type="submit"
                className="primary"
                disabled={busy}
                aria-describedby={error ? `${ids}-refusal` : undefined}
              >
                {busy ? 'Queuing…' : 'Add to section'}
              </button>
            )}
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p id={`${ids}-refusal`} className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
