import { describe, expect, it } from 'vitest'
import { ConfigInvalidError, StaleError } from '../../worker/client.ts'
import { failureStatus } from './requestFailure.ts'

describe('failureStatus', () => {
  it('shows nothing for a superseded request, the issues for a refused config, else the message', () => {
    expect(failureStatus(new StaleError(3), 'Nothing was swept:')).toEqual({ kind: 'idle' })
    const issues = [{ path: 'window.contextTokens', message: 'too small' }]
    expect(failureStatus(new ConfigInvalidError(issues), 'Nothing was swept:')).toEqual({
      kind: 'error',
      message: 'Nothing was swept:',
      issues,
    })
    expect(failureStatus(new Error('worker crashed'), 'x')).toEqual({
      kind: 'error',
      message: 'worker crashed',
      issues: [],
    })
    expect(failureStatus('plain', 'x')).toMatchObject({ message: 'plain' })
  })
})
