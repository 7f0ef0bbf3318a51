import { describe, expect, it } from 'vitest'
import { parseBinding } from './keys.ts'

/** The registry's shape as far as these checks go. */
interface CommandShape {
  readonly id: string
  readonly group: string
  readonly keys: readonly string[]
  readonly inFields?: boolean
}

// Loaded by URL rather than a static import: the registry reaches the store (DOM types), and this
// file is type-checked with the DOM-less Node config that every unit test shares.
const registryUrl = new URL('./registry.ts', import.meta.url).href
const { COMMANDS, COMMAND_GROUPS } = (await import(/* @vite-ignore */ registryUrl)) as {
  readonly COMMANDS: readonly CommandShape[]
  readonly COMMAND_GROUPS: readonly string[]
}

describe('command registry', () => {
  it('has unique ids and groups the help knows', () => {
    const ids = COMMANDS.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const c of COMMANDS) expect(COMMAND_GROUPS).toContain(c.group)
  })

  it('binds every key to one command only', () => {
    const seen = new Map<string, string>()
    for (const c of COMMANDS) {
      for (const k of c.keys) {
        expect(parseBinding(k).length).toBeGreaterThan(0)
        expect(seen.get(k), `${k} bound twice`).toBeUndefined()
        seen.set(k, c.id)
      }
    }
  })

  it('covers the keys the app promises', () => {
    const keys = new Map(COMMANDS.flatMap((c) => c.keys.map((k) => [k, c.id] as const)))
    expect(keys.get('j')).toBe('row.next')
    expect(keys.get('k')).toBe('row.previous')
    expect(keys.get('ArrowDown')).toBe('row.next')
    expect(keys.get('Enter')).toBe('detail.open')
    expect(keys.get('Escape')).toBe('detail.close')
    expect(keys.get('/')).toBe('find.open')
    expect(keys.get('Mod+f')).toBe('find.open')
    expect(keys.get('Mod+o')).toBe('load.file')
    expect(keys.get('f')).toBe('filter.focus')
    expect(keys.get('?')).toBe('help.shortcuts')
    expect(keys.get('Mod+k')).toBe('help.palette')
    for (const n of ['1', '2', '3', '4', '5']) expect(keys.get(n)).toMatch(/^detail\.tab\./)
  })

  it('lets only modified chords through while typing', () => {
    for (const c of COMMANDS.filter((x) => x.inFields)) {
      for (const k of c.keys) {
        const [chord] = parseBinding(k)
        expect(chord && (chord.mod || chord.ctrl || chord.meta || chord.alt)).toBe(true)
      }
    }
  })
})
