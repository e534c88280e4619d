import { createContext, useContext, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { ApiContext } from '../../bridge/ApiContext';
import { createLayoutsStore, type LayoutsState, type LayoutsStore } from './layoutsStore';

export const LayoutsContext = createContext<LayoutsStore | null>(null);

export function useLayouts<T>(selector: (state: LayoutsState) => T): T {
  const store = useContext(LayoutsContext);
  if (!store) throw new Error('useLayouts must be used inside <LayoutsContext.Provider>.');
  return useStore(store, selector);
}

/**
 * The store a Layouts panel works with: the one provided by <LayoutsContext.Provider> (created
 * where the app creates its stores), else one of its own for as long as it is mounted, created
 * from the ApiContext's api and following configure and outbox events meanwhile.
 */
export function useLayoutsStore(): LayoutsStore {
  const provided = useContext(LayoutsContext);
  const api = useContext(ApiContext);
  const [own] = useState(() => {
    if (provided) return null;
    if (!api) throw new Error('A Layouts panel needs <ApiContext.Provider> or a LayoutsContext.');
    return createLayoutsStore(api);
  });
  // Subscribed in an effect, not at creation: StrictMode's second mount subscribes again.
  useEffect(() => own?.getState().listen(), [own]);
  return provided ?? own!;
}
