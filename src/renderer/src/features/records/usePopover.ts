import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

/** What the keyboard can reach in a popover, in the order Tab takes. */
const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A toolbar popover's state: open or not, closed by a press outside its anchor or by Escape
 * (which goes no further, so the detail panel stays open). `onOpen` runs each time it opens.
 * Spread `anchorProps` on the element holding the button and the popover (the anchor's own
 * button toggles it; the popover has the class `popover`).
 *
 * The keyboard follows it: opened, the focus goes to the popover's first control (a dialog
 * that leaves the focus on its button makes a keyboard user Tab through it blind); closed by
 * Escape, it comes back to the button, never to the page's body. A control that is disabled or
 * removed under the focus (Export while it runs, Keep it, Restore) hands the focus to the popover's
 * next usable control, or the popover itself: on the body, Escape and Tab would find no popover.
 */
export function usePopover(onOpen?: () => void) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  /** Whether the focus was last inside the open popover (then it must not fall to the body). */
  const held = useRef(false);

  const keepFocus = () => {
    setTimeout(() => {
      const popover = root.current?.querySelector<HTMLElement>('.popover');
      const active = document.activeElement;
      const lost = active === null || active === document.body || active.matches(':disabled');
      if (!held.current || !popover || !lost) return;
      const next = [...popover.querySelectorAll<HTMLElement>(FOCUSABLE)].find(
        (element) => !element.matches(':disabled'),
      );
      if (next) next.focus();
      else {
        popover.tabIndex = -1;
        popover.focus();
      }
    }, 0);
  };
  // A re-render may disable the focused control without a blur event (Chromium drops it silently).
  useEffect(() => {
    if (open) keepFocus();
  });

  useEffect(() => {
    if (!open) return;
    const popover = root.current?.querySelector<HTMLElement>('.popover');
    popover?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    onOpen?.();
    const onDown = (event: MouseEvent) => {
      if (root.current?.contains(event.target as Node)) return;
      held.current = false;
      setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, onOpen]);

  const anchorProps = {
    className: 'popover-anchor',
    ref: root,
    onFocus: (event: FocusEvent) => {
      held.current = open && !!(event.target as Element).closest('.popover');
    },
    onBlur: (event: FocusEvent) => {
      if (event.relatedTarget === null) keepFocus();
      else held.current = false;
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'Escape' && open) {
        event.stopPropagation();
        held.current = false;
        setOpen(false);
        root.current?.querySelector<HTMLElement>(':scope > button')?.focus();
      }
    },
  };
  return { open, setOpen, anchorProps };
}
