import { SECTIONS } from '../shell/sections';
import { EmptyState } from '../shell/EmptyState';
import { useHasOutbox } from './OutboxContext';
import { OutboxView } from './OutboxView';

const OUTBOX = SECTIONS.find((section) => section.id === 'outbox')!;

/** The Outbox section: the view once main.tsx provides the outbox store, else its empty state. */
export function OutboxSection() {
  const has = useHasOutbox();
  if (!has || !OUTBOX.empty)
    return OUTBOX.empty ? <EmptyState section="outbox" {...OUTBOX.empty} /> : null;
  return <OutboxView />;
}
