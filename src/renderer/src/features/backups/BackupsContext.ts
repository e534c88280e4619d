import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { BackupsState, BackupsStore } from './backupsStore';

export const BackupsContext = createContext<BackupsStore | null>(null);

export function useBackups<T>(selector: (state: BackupsState) => T): T {
  const store = useContext(BackupsContext);
  if (!store) throw new Error('useBackups must be used inside <BackupsContext.Provider>.');
  return useStore(store, selector);
}
