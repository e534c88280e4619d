// @vitest-environment happy-dom
/**
 * A router form (a rule, a target) whose save fails says why beside its Save button, in the
 * engine's words, and takes the keyboard's focus there, instead of only at the top of a long page;
 * a form opened afresh starts without it, and a save that succeeds closes the form. By the
 * keyboard, the form takes the focus when opened and gives it back to its opener when closed.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DraftTable } from '../../../../src/renderer/src/features/router/DraftTable';
import { createRouterStore } from '../../../../src/renderer/src/features/router/routerStore';
import { RouterStoreContext } from '../../../../src/renderer/src/features/router/useRouter';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';

useDomTestEnvironment();

const WORDS = 'Name: at most 200 characters (214 given). Nothing was changed.';

function setup(save: () => Promise<unknown>) {
  const store = createRouterStore(fakeEngine({}).api);
  render(
    createElement(
      RouterStoreContext.Provider,
      { value: store },
      createElement(DraftTable<{ id: string; name: string }, { name: string }>, {
        item: 'Target',
        columns: [],
        empty: 'No targets yet.',
        rows: [{ id: '1', name: 'Webhook' }],
        cells: () => null,
        newDraft: () => ({ name: '' }),
        toDraft: (row) => ({ name: row.name }),
        onSave: save,
        form: () => null,
      }),
    ),
  );
  return store;
}

describe('a router form whose save fails', () => {
  it('says why beside Save and moves the focus there', async () => {
    const holder: { store?: ReturnType<typeof createRouterStore> } = {};
    const failing = async () => {
      act(() => holder.store!.setState({ error: WORDS }));
      return undefined;
    };
    holder.store = setup(failing);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New target' }));
    await user.type(screen.getByLabelText('Name'), 'x');
    await user.click(screen.getByRole('button', { name: 'Save target' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(WORDS);
    expect(alert.closest('form')?.getAttribute('aria-label')).toBe('Target');
    expect(document.activeElement).toBe(alert);

    // Another form opened starts clean.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('closes the form when the save succeeds', async () => {
    setup(async () => ({ id: '2' }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New target' }));
    await user.click(screen.getByRole('button', { name: 'Save target' }));
    expect(screen.queryByRole('form', { name: 'Target' })).toBeNull();
  });
});

describe('a router form by the keyboard', () => {
  it('takes the focus on its name when opened, and gives it back to its opener when closed', async () => {
    setup(async () => ({ id: '2' }));
    const user = userEvent.setup();
    const newTarget = screen.getByRole('button', { name: 'New target' });
    newTarget.focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    // Cancelled: back on "New target", not on the page's body.
    screen.getByRole('button', { name: 'Cancel' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('form', { name: 'Target' })).toBeNull();
    expect(document.activeElement).toBe(newTarget);

    // Saved from a row's Edit: back on that Edit.
    const edit = screen.getByRole('button', { name: 'Edit' });
    edit.focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Target' })).toBeNull());
    expect(document.activeElement).toBe(edit);
  });
});
