/**
 * Key bindings as short strings, matched against keyboard events (no DOM needed, so tested in
 * Node). A binding is one chord (`j`, `ArrowDown`, `Mod+k`, `Ctrl+Shift+p`) or a sequence of
 * chords separated by a space (`g g`). `Mod` is ⌘ on Apple platforms and Ctrl elsewhere.
 */

export interface KeyChord {
  /** `event.key` as typed: a character (`j`, `G`, `?`, `[`) or a named key (`ArrowDown`). */
  readonly key: string
  readonly mod: boolean
  readonly ctrl: boolean
  readonly alt: boolean
  readonly shift: boolean
  readonly meta: boolean
}

/** The fields of a KeyboardEvent the matcher reads. */
export interface KeyEventLike {
  readonly key: string
  readonly ctrlKey: boolean
  readonly altKey: boolean
  readonly shiftKey: boolean
  readonly metaKey: boolean
}

export function parseChord(text: string): KeyChord {
  const parts = text.split('+')
  // `+` itself as the key: "Shift++" splits into [..., '', ''].
  const key = text.endsWith('++') || text === '+' ? '+' : (parts.at(-1) ?? '')
  const mods = new Set(parts.slice(0, text.endsWith('++') ? -2 : -1).map((m) => m.toLowerCase()))
  return {
    key,
    mod: mods.has('mod'),
    ctrl: mods.has('ctrl'),
    alt: mods.has('alt'),
    shift: mods.has('shift'),
    meta: mods.has('meta'),
  }
}

export function parseBinding(binding: string): readonly KeyChord[] {
  return binding
    .split(' ')
    .filter((part) => part !== '')
    .map(parseChord)
}

/** One printable character: its `event.key` already says whether Shift was held (`G`, `?`). */
const isCharacter = (key: string) => [...key].length === 1

export function chordMatches(chord: KeyChord, event: KeyEventLike, mac: boolean): boolean {
  const wantCtrl = chord.ctrl || (chord.mod && !mac)
  const wantMeta = chord.meta || (chord.mod && mac)
  if (event.ctrlKey !== wantCtrl || event.metaKey !== wantMeta || event.altKey !== chord.alt) {
    return false
  }
  const modified = wantCtrl || wantMeta || chord.alt
  if (isCharacter(chord.key) && !modified) {
    // `?` is Shift+/ on one layout and a plain key on another: trust the character.
    return event.key === chord.key
  }
  if (event.shiftKey !== chord.shift) return false
  // With Ctrl/⌘ held, Shift changes the letter's case (`Ctrl+Shift+P` gives "P").
  return isCharacter(chord.key)
    ? event.key.toLowerCase() === chord.key.toLowerCase()
    : event.key === chord.key
}

const NAMED: Readonly<Record<string, string>> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
  Escape: 'Esc',
  Enter: 'Enter',
  ' ': 'Space',
}

/** How a binding is shown: one label per chord, e.g. `Mod+k` → ["Ctrl+K"], `g g` → ["g", "g"]. */
export function formatBinding(binding: string, mac: boolean): readonly string[] {
  return parseBinding(binding).map((chord) => {
    const mods: string[] = []
    if (chord.ctrl || (chord.mod && !mac)) mods.push(mac ? '⌃' : 'Ctrl')
    if (chord.meta || (chord.mod && mac)) mods.push(mac ? '⌘' : 'Meta')
    if (chord.alt) mods.push(mac ? '⌥' : 'Alt')
    if (chord.shift) mods.push(mac ? '⇧' : 'Shift')
    const modified = mods.length > 0
    const key = NAMED[chord.key] ?? (modified ? chord.key.toUpperCase() : chord.key)
    return [...mods, key].join(mac ? '' : '+')
  })
}

export interface Binding {
  readonly id: string
  readonly keys: readonly string[]
}

export type KeyResult =
  | { readonly kind: 'run'; readonly id: string }
  /** The key starts a sequence (`g` of `g g`): swallow it and wait for the next. */
  | { readonly kind: 'pending' }
  | { readonly kind: 'none' }

/** A key arriving later than this after the first of a sequence starts afresh. */
export const SEQUENCE_TIMEOUT_MS = 1000

/**
 * Turns key presses into command ids. Holds the first chord of a sequence in progress; a key
 * that does not continue it is matched on its own, as if the sequence never started.
 */
export class KeyDispatcher {
  private readonly bindings: readonly { id: string; chords: readonly KeyChord[] }[]
  private readonly mac: boolean
  private pending: { chord: KeyEventLike; at: number } | null = null

  constructor(bindings: readonly Binding[], mac: boolean) {
    this.mac = mac
    this.bindings = bindings.flatMap((b) =>
      b.keys.map((k) => ({ id: b.id, chords: parseBinding(k) })),
    )
  }

  reset(): void {
    this.pending = null
  }

  handle(
    event: KeyEventLike,
    now: number,
    enabled: (id: string) => boolean = () => true,
  ): KeyResult {
    const first = this.pending && now - this.pending.at <= SEQUENCE_TIMEOUT_MS ? this.pending : null
    this.pending = null
    if (first) {
      for (const b of this.bindings) {
        const [a, second] = b.chords
        if (b.chords.length === 2 && a && second && enabled(b.id)) {
          if (chordMatches(a, first.chord, this.mac) && chordMatches(second, event, this.mac)) {
            return { kind: 'run', id: b.id }
          }
        }
      }
    }
    for (const b of this.bindings) {
      const [a] = b.chords
      if (b.chords.length === 1 && a && enabled(b.id) && chordMatches(a, event, this.mac)) {
        return { kind: 'run', id: b.id }
      }
    }
    const starts = this.bindings.some((b) => {
      const [a] = b.chords
      return b.chords.length > 1 && a && enabled(b.id) && chordMatches(a, event, this.mac)
    })
    if (starts) {
      this.pending = { chord: { ...pick(event) }, at: now }
      return { kind: 'pending' }
    }
    return { kind: 'none' }
  }
}

function pick(e: KeyEventLike): KeyEventLike {
  return {
    key: e.key,
    ctrlKey: e.ctrlKey,
    altKey: e.altKey,
    shiftKey: e.shiftKey,
    metaKey: e.metaKey,
  }
}
