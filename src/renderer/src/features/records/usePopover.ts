import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

/**
 * A toolbar popover's state: open or not, closed by a press outside its anchor or by Escape
 * (which goes no further, so the detail panel stays open). `onOpen` runs each time it opens.
 * Spread `anchorProps` on the element holding the button and the popover.
 */
export function usePopover(onOpen?: () => void) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

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
      }
    },
  };
  return { open, setOpen, anchorProps };
}
