import { describe, expect, it } from 'vitest'
import {
  formatBytes,
  planKeep,
  recentId,
  RECENT_LIMITS,
  textKey,
  textKeyInSlices,
  type RecentMeta,
} from './recent-files.ts'

const MB = 1024 * 1024
const entry = (id: string, bytes: number, savedAt: number): RecentMeta => ({
  id,
  name: id,
  origin: 'file',
  bytes,
  savedAt,
})

describe('recent transcripts: what is kept', () => {
  it('refuses one transcript over the per-entry bound, saying why', () => {
    const plan = planKeep([], entry('huge', RECENT_LIMITS.entryBytes + 1, 1))
    expect(plan.keep).toBe(false)
    if (!plan.keep) expect(plan.reason).toMatch(/not kept.*over the 25 MB/)
  })

  it('replaces the same content and evicts the oldest beyond the entry count', () => {
    const existing = [1, 2, 3, 4, 5].map((n) => entry(`e${n}`, 1, n))
    const plan = planKeep(existing, entry('new', 1, 10))
    expect(plan).toEqual({ keep: true, evict: ['e1'] })
    const again = planKeep(existing, entry('e3', 1, 10))
    expect(again).toEqual({ keep: true, evict: ['e3'] })
  })

  it('evicts the oldest until the total fits', () => {
    const existing = [entry('old', 30 * MB, 1), entry('mid', 20 * MB, 2), entry('new', 5 * MB, 3)]
    const plan = planKeep(existing, entry('in', 20 * MB, 4))
    // 20 + 5 + 20 = 45 MB fit under 60; adding the 30 MB oldest would not.
    expect(plan).toEqual({ keep: true, evict: ['old'] })
  })

  it('keys pastes by content and files by name and size', () => {
    expect(recentId('abc', 'x')).toBe(recentId('abc', 'y'))
    expect(recentId('abc', 'x')).not.toBe(recentId('abd', 'x'))
    const a = new File(['xyz'], 'a.json', { lastModified: 1 })
    const reopened = new File([a], 'a.json', { lastModified: 2 })
    expect(recentId(reopened, 'a.json')).toBe(recentId(a, 'a.json'))
    expect(textKey('')).toMatch(/^[0-9a-f]{8}$/)
    expect(formatBytes(1536)).toBe('2 KB')
    expect(formatBytes(25 * MB)).toBe('25 MB')
  })

  it('hashes a long paste a slice at a time to the same key', async () => {
    const long = 'ab\u00e9c'.repeat(100_000)
    expect(await textKeyInSlices(long)).toBe(textKey(long))
    expect(await textKeyInSlices('')).toBe(textKey(''))
  })
})
