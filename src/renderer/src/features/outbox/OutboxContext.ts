import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { EMPTY_OUTBOX, type OutboxState, type OutboxStore } from './outboxStore';

export const OutboxContext = createContext<OutboxStore | null>(null);

const nothing = async () => undefined;

/** Where no store is provided (a window without the outbox): empty, and every action a no-op. */
const detached: OutboxStore = createStore<OutboxState>()(() => ({
  ...EMPTY_OUTBOX,
  load: nothing,
  received: () => undefined,
  refresh: nothing,
  retry: nothing,
  discard: nothing,
  resolve: nothing,
  setWorkOffline: nothing,
  dismissNotice: () => undefined,
}));

export function useOutbox<T>(selector: (state: OutboxState) => T): T {
  return useStore(useContext(OutboxContext) ?? detached, selector);
}

/** False until main.tsx provides the outbox store. */
export function useHasOutbox(): boolean {
  return useContext(OutboxContext) !== null;
}
