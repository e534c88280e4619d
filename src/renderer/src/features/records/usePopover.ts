import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

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
 * Escape, it comes back to the button, never to the page's body.
 */
export function usePopover(onOpen?: () => void) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const popover = root.current?.querySelector<HTMLElement>('.popover');
    popover?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    onOpen?.();
    const onDown = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, onOpen]);

  const anchorProps = {
    className: 'popover-anchor',
    ref: root,
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'Escape' && open) {
        event.stopPropagation();
        setOpen(false);
        root.current?.querySelector<HTMLElement>(':scope > button')?.focus();
      }
    },
  };
  return { open, setOpen, anchorProps };
}
