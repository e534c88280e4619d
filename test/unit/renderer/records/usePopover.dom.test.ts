// @vitest-environment happy-dom
/**
 * The toolbar popovers (Columns, Export, Bulk edit, Import, Recycle bin) share usePopover: opened,
 * the focus goes to the popover's first control that takes it; Escape closes it and gives the
 * focus back to its button; a press outside closes it and leaves the focus where it went.
 */
import { createElement as h } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { usePopover } from '../../../../src/renderer/src/features/records/usePopover';
import { useDomTestEnvironment } from '../support/dom';

useDomTestEnvironment();

function Tool() {
  const { open, setOpen, anchorProps } = usePopover();
  return h(
    'div',
    null,
    h(
      'div',
      anchorProps,
      h('button', { type: 'button', onClick: () => setOpen(!open) }, 'Tool'),
      open &&
        h(
          'div',
          { className: 'popover', role: 'dialog', 'aria-label': 'Tool' },
          h('input', { type: 'checkbox', disabled: true, 'aria-label': 'Fixed' }),
          h('select', { 'aria-label': 'Field' }, h('option', null, 'Name')),
          h('button', { type: 'button' }, 'Apply'),
        ),
    ),
    h('button', { type: 'button' }, 'Elsewhere'),
  );
}

describe('usePopover', () => {
  it('moves the focus into the popover when it opens, and back to its button on Escape', async () => {
    const user = userEvent.setup();
    render(h(Tool));
    const toggle = screen.getByRole('button', { name: 'Tool' });
    await user.click(toggle);
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Field' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Apply' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(toggle);

    // Opened by the keyboard too.
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Field' }));
  });

  it('closes on a press outside without taking the focus back', async () => {
    const user = userEvent.setup();
    render(h(Tool));
    await user.click(screen.getByRole('button', { name: 'Tool' }));
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    await user.click(elsewhere);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(elsewhere);
  });
});
