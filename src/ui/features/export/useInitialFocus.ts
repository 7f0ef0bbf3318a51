import { useEffect, type RefObject } from 'react'

/**
 * Focus `ref` once the dialog around it is open. React's `autoFocus` fires before the Modal's
 * `showModal()` (child effects run first), and `showModal()` then moves focus to the first
 * focusable element, so the focus is set one task later.
 */
export function useInitialFocus(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const timer = setTimeout(() => ref.current?.focus(), 0)
    return () => clearTimeout(timer)
  }, [ref])
}
