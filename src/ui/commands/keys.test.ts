import { describe, expect, it } from 'vitest'
import {
  chordMatches,
  formatBinding,
  KeyDispatcher,
  parseChord,
  SEQUENCE_TIMEOUT_MS,
  type KeyEventLike,
} from './keys.ts'

function key(k: string, mods: Partial<Omit<KeyEventLike, 'key'>> = {}): KeyEventLike {
  return { key: k, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods }
}

describe('chords', () => {
  it('parses modifiers and the key', () => {
    expect(parseChord('Ctrl+Shift+p')).toMatchObject({ key: 'p', ctrl: true, shift: true })
    expect(parseChord('Mod+k')).toMatchObject({ key: 'k', mod: true, ctrl: false })
    expect(parseChord('Shift++')).toMatchObject({ key: '+', shift: true })
  })

  it('matches characters by what was typed, whatever Shift did', () => {
    expect(chordMatches(parseChord('?'), key('?', { shiftKey: true }), false)).toBe(true)
    expect(chordMatches(parseChord('G'), key('G', { shiftKey: true }), false)).toBe(true)
    expect(chordMatches(parseChord('g'), key('G', { shiftKey: true }), false)).toBe(false)
    expect(chordMatches(parseChord('j'), key('j', { ctrlKey: true }), false)).toBe(false)
  })

  it('maps Mod to Ctrl elsewhere and ⌘ on Apple platforms', () => {
    const modK = parseChord('Mod+k')
    expect(chordMatches(modK, key('k', { ctrlKey: true }), false)).toBe(true)
    expect(chordMatches(modK, key('k', { metaKey: true }), false)).toBe(false)
    expect(chordMatches(modK, key('k', { metaKey: true }), true)).toBe(true)
    expect(chordMatches(modK, key('k', { ctrlKey: true }), true)).toBe(false)
  })

  it('needs Shift to match exactly for named keys and modified letters', () => {
    expect(chordMatches(parseChord('ArrowDown'), key('ArrowDown'), false)).toBe(true)
    expect(chordMatches(parseChord('ArrowDown'), key('ArrowDown', { shiftKey: true }), false)).toBe(
      false,
    )
    const palette = parseChord('Ctrl+Shift+p')
    expect(chordMatches(palette, key('P', { ctrlKey: true, shiftKey: true }), false)).toBe(true)
    expect(chordMatches(palette, key('p', { ctrlKey: true }), false)).toBe(false)
  })

  it('formats bindings for people', () => {
    expect(formatBinding('Mod+k', false)).toEqual(['Ctrl+K'])
    expect(formatBinding('Mod+k', true)).toEqual(['⌘K'])
    expect(formatBinding('g g', false)).toEqual(['g', 'g'])
    expect(formatBinding('ArrowDown', false)).toEqual(['↓'])
    expect(formatBinding('Escape', false)).toEqual(['Esc'])
  })
})

describe('dispatcher', () => {
  const bindings = [
    { id: 'next', keys: ['j', 'ArrowDown'] },
    { id: 'first', keys: ['g g', 'Home'] },
    { id: 'last', keys: ['G'] },
    { id: 'palette', keys: ['Mod+k'] },
  ]

  it('runs single chords', () => {
    const d = new KeyDispatcher(bindings, false)
    expect(d.handle(key('j'), 0)).toEqual({ kind: 'run', id: 'next' })
    expect(d.handle(key('ArrowDown'), 0)).toEqual({ kind: 'run', id: 'next' })
    expect(d.handle(key('G', { shiftKey: true }), 0)).toEqual({ kind: 'run', id: 'last' })
    expect(d.handle(key('k', { ctrlKey: true }), 0)).toEqual({ kind: 'run', id: 'palette' })
    expect(d.handle(key('x'), 0)).toEqual({ kind: 'none' })
  })

  it('runs a sequence: the first key waits, the second completes it', () => {
    const d = new KeyDispatcher(bindings, false)
    expect(d.handle(key('g'), 0)).toEqual({ kind: 'pending' })
    expect(d.handle(key('g'), 200)).toEqual({ kind: 'run', id: 'first' })
  })

  it('drops a sequence after a pause, or when another key comes', () => {
    const d = new KeyDispatcher(bindings, false)
    d.handle(key('g'), 0)
    expect(d.handle(key('g'), SEQUENCE_TIMEOUT_MS + 1)).toEqual({ kind: 'pending' })
    d.reset()
    d.handle(key('g'), 0)
    expect(d.handle(key('j'), 10)).toEqual({ kind: 'run', id: 'next' })
  })

  it('skips disabled commands', () => {
    const d = new KeyDispatcher(bindings, false)
    expect(d.handle(key('j'), 0, (id) => id !== 'next')).toEqual({ kind: 'none' })
    expect(d.handle(key('g'), 0, (id) => id !== 'first')).toEqual({ kind: 'none' })
  })
})
