import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

/** What the keyboard can reach in a popover, in the order Tab takes. */
const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The popover's tab stops in order, as the browser takes them: usable controls, a named radio
 * group once (its checked radio, or its first).
 */
function tabStops(popover: HTMLElement): HTMLElement[] {
  const stops: HTMLElement[] = [];
  const groups = new Set<string>();
  for (const element of popover.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (element.matches(':disabled') || element.closest('[hidden], [inert]')) continue;
    if (element instanceof HTMLInputElement && element.type === 'radio' && element.name) {
      if (groups.has(element.name)) continue;
      groups.add(element.name);
      const group = [...popover.querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter(
        (radio) => radio.name === element.name && !radio.disabled,
      );
      stops.push(group.find((radio) => radio.checked) ?? element);
      continue;
    }
    stops.push(element);
  }
  return stops;
}

/** The stop `element` stands for: a radio stands for its group's stop. */
function stopOf(element: Element, stops: HTMLElement[]): HTMLElement | undefined {
  if (element instanceof HTMLInputElement && element.type === 'radio' && element.name) {
    const { name } = element;
    return stops.find(
      (stop) => stop instanceof HTMLInputElement && stop.type === 'radio' && stop.name === name,
    );
  }
  return stops.find((stop) => stop === element);
}

/**
 * Where Tab (or Shift+Tab) from `from` must go to stay in `popover`: its first (last) stop when
 * the browser would leave it, else undefined (the browser's own move stays inside).
 */
function wrapTarget(popover: HTMLElement, from: Element, back: boolean): HTMLElement | undefined {
  const stops = tabStops(popover);
  const at = stopOf(from, stops);
  const index = at ? stops.indexOf(at) : -1;
  // From an element that is no stop (the popover itself, a message focused by script), the
  // browser goes to the nearest stop after (before) it in the page's order.
  let ahead: boolean;
  if (at) ahead = back ? index > 0 : index < stops.length - 1;
  else {
    const side = back ? Node.DOCUMENT_POSITION_PRECEDING : Node.DOCUMENT_POSITION_FOLLOWING;
    ahead = from !== popover && stops.some((stop) => from.compareDocumentPosition(stop) & side);
  }
  if (ahead) return undefined;
  return back ? stops[stops.length - 1] : stops[0];
}

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
 * Tab and Shift+Tab go round the popover's controls while it is open (it is a modal dialog: Tab
 * out of it reached the table it covers, where the focus was hidden under it).
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
      const popover = root.current?.querySelector<HTMLElement>('.popover');
      if (event.key === 'Tab' && open && popover?.contains(event.target as Node)) {
        const to = wrapTarget(popover, event.target as Element, event.shiftKey);
        if (to) {
          event.preventDefault();
          to.focus();
        }
        return;
      }
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
