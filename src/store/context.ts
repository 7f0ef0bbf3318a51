/**
 * The lab store reaches components through a React context (one store per `createLabStore`), so
 * two labs — or two tests — never share state. Components read it through the named hooks.
 */
import { createContext, useContext } from 'react'
import { useStore } from 'zustand'
import type { EngineClient } from '../worker/client.ts'
import type { AppState, LabStore } from './store.ts'

const LabStoreContext = createContext<LabStore | null>(null)

/** Wrap the app (or a test's tree) in `<LabStoreProvider value={createLabStore()}>`. */
export const LabStoreProvider = LabStoreContext.Provider

/** The store of the enclosing provider, for event handlers (`useLabStore().getState()`). */
export function useLabStore(): LabStore {
  const store = useContext(LabStoreContext)
  if (!store) throw new Error('no LabStoreProvider above this component')
  return store
}

/** Select from the enclosing lab store (components use the named hooks built on this). */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useLabStore(), selector)
}

/** The engine client the views' requests go through (see `useEngineRequest`). */
export const useEngineClient = (): EngineClient => useLabStore().getState().engine
