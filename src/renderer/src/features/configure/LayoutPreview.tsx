import { useId } from 'react';
import type { ConfigLayout } from '../../../../shared/ipc/areas/configure';

/**
 * What a field of each type shows in the preview: a made-up value of the type's shape. Types are
 * the custom field types (packages/portal-api/src/domain/customFieldTypes.ts) and the system
 * fields' own (status, owner, project, id); anything else shows as text.
 */
const PLACEHOLDERS = new Map<string, string>([
  ['single_line', 'A line of text'],
  ['multi_line', 'A few lines of text…'],
  ['pick_list', 'One option'],
  ['multi_select', 'Option A, Option B'],
  ['user_pick_list', 'A user'],
  ['owner', 'A user'],
  ['multi_user', 'User A, User B'],
  ['date', 'A date'],
  ['time', 'A time of day'],
  ['timestamp', 'A date and time'],
  ['created_time', 'A date and time'],
  ['last_updated_time', 'A date and time'],
  ['check_box', 'Yes or no'],
  ['currency', 'An amount'],
  ['percentage', '0 %'],
  ['number', '0'],
  ['decimal', '0.00'],
  ['email', 'name@example.com'],
  ['phone', 'A phone number'],
  ['url', 'https://…'],
  ['status', 'A status'],
  ['project', 'A project'],
  ['id', 'The record’s id'],
]);

export function placeholderOf(type: string): string {
  return PLACEHOLDERS.get(type) ?? 'A value';
}

/** The records workspace's detail panel shows the name in its header, not among the fields. */
const IN_HEADER = new Set(['name']);

/**
 * The record form of a layout as the records workspace's detail panel shows it (RecordDetailPanel):
 * the record's name as the heading, then each section by name with its fields' labels and a
 * placeholder of each field's type. It draws whatever layout it is given, so a queued change
 * shows here the moment the panel shows it.
 */
export function LayoutPreview({ layout }: { layout: ConfigLayout }) {
  const ids = useId();
  return (
    <aside className="layout-preview" aria-labelledby={`${ids}-title`}>
      <h4 id={`${ids}-title`} className="layout-preview__title">
        Preview: {layout.name}
      </h4>
      <div className="layout-preview__form">
        <p className="layout-preview__record">Record name</p>
        {layout.sections.length === 0 && (
          <p className="hint">This layout has no sections yet: records open with no fields.</p>
        )}
        {layout.sections.map((section) => {
          const fields = section.fields.filter((field) => !IN_HEADER.has(field.key));
          return (
            <section
              key={section.id}
              className="layout-preview__section"
              aria-label={`Preview section ${section.name}`}
            >
              <h5>{section.name}</h5>
              {fields.length === 0 ? (
                <p className="hint">No fields in this section.</p>
              ) : (
                <dl className="facts">
                  {fields.flatMap((field) => [
                    <dt key={`${field.key}:label`}>{field.label}</dt>,
                    <dd key={`${field.key}:value`} className="layout-preview__value">
                      {placeholderOf(field.type)}
                    </dd>,
                  ])}
                </dl>
              )}
            </section>
          );
        })}
      </div>
    </aside>
  );
}
