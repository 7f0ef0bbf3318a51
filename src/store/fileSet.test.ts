import { describe, expect, it } from 'vitest'
import { isSubagentFile, orderFiles } from './fileSet.ts'

describe('file sets', () => {
  it('recognises Claude Code subagent transcripts, old and new layouts', () => {
    expect(isSubagentFile('agent-a1b2c3.jsonl')).toBe(true)
    expect(isSubagentFile('5a2f/subagents/agent-a1.jsonl')).toBe(true)
    expect(isSubagentFile('5a2f0c1e-aaaa.jsonl')).toBe(false)
    expect(isSubagentFile('agent-notes.json')).toBe(false)
  })

  it('puts the main session first and keeps the user order otherwise', () => {
    const names = ['agent-b.jsonl', 'session.jsonl', 'agent-a.jsonl', 'notes.json']
    expect(orderFiles(names.map((name) => ({ name }))).map((f) => f.name)).toEqual([
      'session.jsonl',
      'notes.json',
      'agent-b.jsonl',
      'agent-a.jsonl',
    ])
  })
})
