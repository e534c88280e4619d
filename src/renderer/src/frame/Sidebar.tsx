import { useRef, type KeyboardEvent } from 'react';
import { AccountSwitcher } from '../features/accounts/AccountSwitcher';
import { RecordsNav } from '../features/records/RecordsNav';
import { SectionIcon } from '../ui/Icon';
import { SECTIONS } from '../app/sections';
import { useShell } from '../app/ShellContext';

const shortcutModifier = navigator.userAgent.includes('Mac') ? '⌘' : 'Ctrl+';

/** Section navigation: click, arrow keys within the list, or Ctrl/Cmd+1…7 from anywhere. */
export function Sidebar() {
  const current = useShell((state) => state.section);
  const select = useShell((state) => state.select);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number) => {
    const last = SECTIONS.length - 1;
    const target =
      event.key === 'ArrowDown'
        ? Math.min(index + 1, last)
        : event.key === 'ArrowUp'
          ? Math.max(index - 1, 0)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    buttons.current[target]?.focus();
    select(SECTIONS[target]!.id);
  };

  return (
    <nav className="sidebar" aria-label="Sections">
      <div className="sidebar__brand">
        <span className="sidebar__logo" aria-hidden="true" />
        PortalDesk
      </div>
      <AccountSwitcher />
      <ul>
        {SECTIONS.map((section, index) => (
          <li key={section.id}>
            <button
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              className="sidebar__item"
              aria-current={current === section.id ? 'page' : undefined}
              tabIndex={current === section.id ? 0 : -1}
              title={`${section.label} (${shortcutModifier}${index + 1})`}
              onClick={() => select(section.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              <SectionIcon id={section.id} />
              <span>{section.label}</span>
              <kbd aria-hidden="true">{index + 1}</kbd>
            </button>
          </li>
        ))}
      </ul>
      {current === 'records' && <RecordsNav />}
    </nav>
  );
}
