import { describe, expect, it } from 'vitest'
import type { ResourceIdentity } from './identity.ts'
import { sharedStrings, withSharedStrings } from './shared-strings.ts'

const ranged: ResourceIdentity = {
  tool: 'read',
  primary: 'src/a.ts',
  secondary: ['10-20'],
  key: 'read:src/a.ts:10-20',
  fullReadKey: 'read:src/a.ts',
  reads: ['src/a.ts'],
  lines: { kind: 'lines', start: 10, end: 20 },
}

describe('shared strings', () => {
  it('keeps every field of an identity, and adds none it did not have', () => {
    const share = sharedStrings({})
    expect(withSharedStrings(ranged, share)).toEqual(ranged)
    const command: ResourceIdentity = {
      tool: 'bash',
      primary: 'npm test',
      secondary: [],
      key: 'bash:npm test',
    }
    const shared = withSharedStrings(command, share)
    expect(shared).toEqual(command)
    expect(Object.keys(shared)).toEqual(Object.keys(command))
  })

  it('gives one sharer per conversation, the same each time it is asked', () => {
    const conversation = {}
    expect(sharedStrings(conversation)).toBe(sharedStrings(conversation))
    expect(sharedStrings(conversation)).not.toBe(sharedStrings({}))
    const share = sharedStrings(conversation)
    expect(share(['read', 'src/a.ts'].join(':'))).toBe('read:src/a.ts')
  })
})
