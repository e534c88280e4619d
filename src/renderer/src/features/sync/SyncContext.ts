import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { SyncState, SyncStore } from './syncStore';

export const SyncContext = createContext<SyncStore | null>(null);

export function useSync<T>(selector: (state: SyncState) => T): T {
  const store = useContext(SyncContext);
  if (!store) throw new Error('useSync must be used inside <SyncContext.Provider>.');
  return useStore(store, selector);
}
