import { describe, expect, it } from 'vitest'
import { EXPORT_TARGETS } from '../../../export/targets/index.ts'
import { CONFIG_CHOICES, choiceById, EXPORT_CHOICES } from './exportChoices.ts'

describe('export choices', () => {
  it('offer our config and every target of the export module, in its order', () => {
    expect(CONFIG_CHOICES.map((c) => c.id)).toEqual([
      'compaction-lab',
      ...EXPORT_TARGETS.map((t) => t.id),
    ])
  })

  it('have unique ids and labels', () => {
    expect(new Set(EXPORT_CHOICES.map((c) => c.id)).size).toBe(EXPORT_CHOICES.length)
    expect(new Set(EXPORT_CHOICES.map((c) => c.label)).size).toBe(EXPORT_CHOICES.length)
    expect(choiceById('report-csv')?.kind).toBe('report')
    expect(choiceById('nope')).toBeUndefined()
  })
})
