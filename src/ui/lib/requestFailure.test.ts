import { describe, expect, it } from 'vitest'
import { ConfigInvalidError, failureOf } from '../../store/index.ts'
import { failureStatus } from './requestFailure.ts'

describe('failureStatus', () => {
  it('shows the issues under the heading for a refused config, else the message', () => {
    const issues = [{ path: 'window.contextTokens', message: 'too small' }]
    expect(failureStatus(failureOf(new ConfigInvalidError(issues)), 'Nothing was swept:')).toEqual({
      kind: 'error',
      message: 'Nothing was swept:',
      issues,
    })
    expect(failureStatus(failureOf(new Error('worker crashed')), 'x')).toEqual({
      kind: 'error',
      message: 'worker crashed',
      issues: [],
    })
    expect(failureStatus(failureOf('plain'), 'x')).toMatchObject({ message: 'plain' })
  })
})
