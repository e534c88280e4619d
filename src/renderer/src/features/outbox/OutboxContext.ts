import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { OutboxState, OutboxStore } from './outboxStore';

export const OutboxContext = createContext<OutboxStore | null>(null);

export function useOutbox<T>(selector: (state: OutboxState) => T): T {
  const store = useContext(OutboxContext);
  if (!store) throw new Error('useOutbox must be used inside <OutboxContext.Provider>.');
  return useStore(store, selector);
}
