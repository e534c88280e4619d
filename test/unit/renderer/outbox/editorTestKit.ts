/**
 * The record editor as the records panel shows it, over a contract-checked fake engine: a form
 * with the fields and values a test chooses, and every `outbox.edit` the editor sends recorded
 * (answered as the engine answers a queued change, without changing the form).
 */
import { createElement } from 'react';
import { render, screen, within } from '@testing-library/react';
import type { EditableField, EditForm } from '../../../../src/shared/ipc/areas/outbox';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { RecordEditor } from '../../../../src/renderer/src/features/outbox/RecordEditor';
import { fakeEngine } from '../support/fakeEngine';
import { pass, setupUser } from '../support/dom';

export { editableField } from './editableField';

export const PORTAL = '7000001';
export const MODULE = '7000002';
export const RECORD = '7000003';

export async function openEditor(
  fields: EditableField[],
  values: Record<string, unknown>,
  timeZone = 'Asia/Kolkata',
) {
  const form: EditForm = {
    portalId: PORTAL,
    moduleId: MODULE,
    recordId: RECORD,
    timeZone,
    fields,
    values,
    pending: {},
  };
  const engine = fakeEngine({
    'outbox.form': () => form,
    'outbox.pendingComments': () => [],
    'outbox.edit': (args) => ({
      portalId: args.portalId,
      recordId: args.recordId,
      opId: 1,
      reverted: [],
    }),
  });
  const user = setupUser();
  render(
    createElement(
      ApiContext.Provider,
      { value: engine.api },
      createElement(RecordEditor, {
        portalId: PORTAL,
        moduleId: MODULE,
        recordId: RECORD,
        trashed: false,
      }),
    ),
  );
  await pass(10);
  await screen.findByTestId('record-editor');
  /** The editor of one field: its label, control, buttons and messages. */
  const fieldBox = (key: string) => {
    const box = document.querySelector<HTMLElement>(`.field-editor[data-field="${key}"]`);
    if (!box) throw new Error(`No editor for field ${key}`);
    return box;
  };
  const saveButton = (key: string) =>
    within(fieldBox(key)).getByRole<HTMLButtonElement>('button', { name: 'Save' });
  /** The changes of every `outbox.edit` the editor sent, oldest first. */
  const edits = () => engine.argsOf('outbox.edit').map((args) => args.changes);
  return { user, engine, form, fieldBox, saveButton, edits };
}
