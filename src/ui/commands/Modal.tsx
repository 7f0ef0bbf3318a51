import { useEffect, useRef, type ReactNode } from 'react'

interface ModalProps {
  readonly title: string
  readonly onClose: () => void
  readonly children: ReactNode
  readonly testId?: string
  readonly className?: string
}

/**
 * A modal on the native `<dialog>`: `showModal()` makes the rest of the page inert (focus stays
 * inside) and puts it in the top layer. Esc and a click on the backdrop close it; focus goes back
 * to where it was when the dialog opened. Mount it only while open.
 */
export function Modal({ title, onClose, children, testId, className }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const previous = document.activeElement
    if (!dialog.open) dialog.showModal()
    return () => {
      if (dialog.open) dialog.close()
      // Restore after the dialog is gone (it may be torn down while a command moves focus).
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus()
    }
  }, [])
  return (
    <dialog
      ref={ref}
      className={className ? `modal ${className}` : 'modal'}
      aria-modal="true"
      aria-label={title}
      data-testid={testId}
      onCancel={(event) => {
        // Let React unmount it instead of the browser closing it under React's feet.
        event.preventDefault()
        onClose()
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose()
      }}
    >
      <div className="modal-body">{children}</div>
    </dialog>
  )
}
