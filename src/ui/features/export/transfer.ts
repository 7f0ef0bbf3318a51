/** Getting a file out of the page: the clipboard (with a fallback) and a download. */

/**
 * Copy text. The async Clipboard API needs a secure context and permission; where it is missing
 * or refused, a hidden textarea and `execCommand('copy')` still work in most browsers.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // Permission refused or not focused: try the old way below.
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  // Inside the open <dialog> when there is one: the rest of the page is inert then.
  const host = document.querySelector('dialog[open]') ?? document.body
  host.append(area)
  const previous = document.activeElement
  area.select()
  let ok = false
  try {
    ok = document.execCommand('copy')
  } catch {
    ok = false
  }
  area.remove()
  if (previous instanceof HTMLElement) previous.focus()
  return ok
}

/** Save text as a file: a Blob URL on a temporary `<a download>`, revoked once clicked. */
export function downloadText(fileName: string, text: string, mediaType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mediaType};charset=utf-8` }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  const host = document.querySelector('dialog[open]') ?? document.body
  host.append(link)
  link.click()
  link.remove()
  // Revoked later: some browsers start reading the Blob only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
