import { describe, expect, it } from 'vitest'
import { amountSpec, kindLabel, startValue } from './conditions.ts'

const fraction = {
  kind: 'window_fraction',
  key: 'over' as const,
  bounds: { integer: false, min: 0, exclusiveMin: true, max: 1 },
}
const capped = {
  kind: 'new_kind',
  key: 'over' as const,
  bounds: { integer: true, min: 0, exclusiveMin: false, max: 10 },
}

describe('conditions from the model', () => {
  it('builds the number field from the kind’s bounds', () => {
    expect(amountSpec(fraction).field).toEqual({
      kind: 'number',
      integer: false,
      nullable: false,
      exclusiveMin: 0,
      max: 1,
    })
    expect(amountSpec(capped).field).toMatchObject({ integer: true, min: 0, max: 10 })
  })

  it('starts a picked kind inside its bounds, and names kinds it has no words for', () => {
    expect(startValue(fraction)).toBe(0.8)
    expect(startValue(capped)).toBe(1)
    expect(startValue({ ...capped, kind: 'tokens' })).toBe(10)
    expect(kindLabel('tool_results')).toBe('tool results')
    expect(kindLabel('new_kind')).toBe('new kind')
  })
})
