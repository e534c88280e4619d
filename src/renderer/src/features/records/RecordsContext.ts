import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { RecordsState, RecordsStore } from './recordsStore';

export const RecordsContext = createContext<RecordsStore | null>(null);

export function useRecordsStore(): RecordsStore {
  const store = useContext(RecordsContext);
  if (!store) throw new Error('useRecords must be used inside <RecordsContext.Provider>.');
  return store;
}

export function useRecords<T>(selector: (state: RecordsState) => T): T {
  return useStore(useRecordsStore(), selector);
}
