// @vitest-environment happy-dom
/**
 * The toolbar popovers (Columns, Export, Bulk edit, Import, Recycle bin) share usePopover: opened,
 * the focus goes to the popover's first control that takes it; Escape closes it and gives the
 * focus back to its button; a press outside closes it and leaves the focus where it went; Tab and
 * Shift+Tab go round its controls while it is open (a radio group is one stop).
 */
import { createElement as h, useState } from 'react';
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

/** An Export-like popover: Start disables itself while it runs; Keep it removes itself. */
function Runner() {
  const { open, setOpen, anchorProps } = usePopover();
  const [running, setRunning] = useState(false);
  const [asking, setAsking] = useState(true);
  return h(
    'div',
    anchorProps,
    h('button', { type: 'button', onClick: () => setOpen(!open) }, 'Runner'),
    open &&
      h(
        'div',
        { className: 'popover', role: 'dialog', 'aria-label': 'Runner' },
        h(
          'button',
          { type: 'button', disabled: running, onClick: () => setRunning(true) },
          'Start',
        ),
        running && h('button', { type: 'button', onClick: () => setRunning(false) }, 'Cancel'),
        asking && h('button', { type: 'button', onClick: () => setAsking(false) }, 'Keep it'),
      ),
  );
}

/** A popover whose last stop is a radio group (Export's formats are one), between two buttons. */
function Formats() {
  const { open, setOpen, anchorProps } = usePopover();
  const [format, setFormat] = useState('csv');
  const radio = (value: string) =>
    h(
      'label',
      null,
      h('input', {
        type: 'radio',
        name: 'format',
        value,
        checked: format === value,
        onChange: () => setFormat(value),
      }),
      value,
    );
  return h(
    'div',
    null,
    h('button', { type: 'button' }, 'Before'),
    h(
      'div',
      anchorProps,
      h('button', { type: 'button', onClick: () => setOpen(!open) }, 'Formats'),
      open &&
        h(
          'div',
          { className: 'popover', role: 'dialog', 'aria-label': 'Formats' },
          h('button', { type: 'button' }, 'Go'),
          radio('csv'),
          radio('xlsx'),
        ),
    ),
    h('button', { type: 'button' }, 'After'),
  );
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('usePopover', () => {
  it('keeps the focus in the popover when its focused control is disabled or removed', async () => {
    const user = userEvent.setup();
    render(h(Runner));
    const toggle = screen.getByRole('button', { name: 'Runner' });
    await user.click(toggle);
    const start = screen.getByRole('button', { name: 'Start' });
    expect(document.activeElement).toBe(start);
    // Disabled under the focus: the next control that can act takes it, not the body.
    await user.keyboard('{Enter}');
    await settled();
    expect(start).toHaveProperty('disabled', true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    // Removed under the focus: the same.
    screen.getByRole('button', { name: 'Keep it' }).focus();
    await user.keyboard('{Enter}');
    await settled();
    expect(screen.queryByRole('button', { name: 'Keep it' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    // Cancel removes itself and enables Start again, which takes the focus.
    await user.keyboard('{Enter}');
    await settled();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Start' }));
    // And Escape, pressed there, still closes it and goes back to the button.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

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

  it('keeps Tab and Shift+Tab going round the open popover, never to the page behind it', async () => {
    const user = userEvent.setup();
    render(h(Tool));
    await user.click(screen.getByRole('button', { name: 'Tool' }));
    const field = screen.getByRole('combobox', { name: 'Field' });
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(document.activeElement).toBe(field);
    await user.tab();
    expect(document.activeElement).toBe(apply);
    // Past the last control: the first again (before: "Elsewhere", under the popover).
    await user.tab();
    expect(document.activeElement).toBe(field);
    // Before the first: the last (before: the popover's own button, outside it).
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(apply);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(field);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('takes a radio group as one stop, and the popover itself as before its first', async () => {
    const user = userEvent.setup();
    render(h(Formats));
    await user.click(screen.getByRole('button', { name: 'Formats' }));
    const go = screen.getByRole('button', { name: 'Go' });
    const xlsx = screen.getByRole('radio', { name: 'xlsx' });
    expect(document.activeElement).toBe(go);
    await user.click(xlsx);
    expect(document.activeElement).toBe(xlsx);
    // The group is the last stop whichever radio holds the focus.
    screen.getByRole('radio', { name: 'csv' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(go);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(xlsx);
    // Focused by script (its control gone), the popover sends Tab to its first, Shift+Tab to its last.
    const dialog = screen.getByRole('dialog');
    dialog.tabIndex = -1;
    dialog.focus();
    await user.tab();
    expect(document.activeElement).toBe(go);
    dialog.focus();
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(xlsx);
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
