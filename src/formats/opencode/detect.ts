import type { Detection, SniffedInput } from '../types.ts'
import { isObject, str } from '../util.ts'

/** Which of the opencode shapes a JSON value is (see formats.md §8). */
export type OpencodeShape = 'export' | 'messages' | 'sqlite' | 'session-only'

/** An element of `messages` in the export / bare-array shapes. */
export function isInfoParts(value: unknown): boolean {
  return isObject(value) && isObject(value.info) && Array.isArray(value.parts)
}

/** A row of an ad-hoc SQLite dump: the message payload sits under `data`. */
function isSqliteRow(value: unknown): boolean {
  return (
    isObject(value) && isObject(value.data) && (Array.isArray(value.parts) || 'session_id' in value)
  )
}

/** opencode ids carry a type prefix; they are the strongest structural hint. */
function hasPrefix(value: unknown, prefix: string): boolean {
  return typeof value === 'string' && value.startsWith(prefix)
}

/** Classify the value; null when it is none of the opencode shapes. */
export function opencodeShape(value: unknown): { shape: OpencodeShape; evidence: string[] } | null {
  if (Array.isArray(value)) {
    if (value.length === 0) return null
    const hits = value.filter(isInfoParts).length
    if (hits === value.length) {
      return { shape: 'messages', evidence: [`${hits}/${value.length} elements are {info, parts}`] }
    }
    return null
  }
  if (!isObject(value)) return null
  const info = value.info
  if (isObject(info) && Array.isArray(value.messages)) {
    const msgs = value.messages
    const hits = msgs.filter(isInfoParts).length
    if (msgs.length === 0 || hits > 0) {
      return {
        shape: 'export',
        evidence: [
          hasPrefix(info.id, 'ses_')
            ? 'info.id starts with `ses_`'
            : 'object with `info` + `messages`',
          `${hits}/${msgs.length} messages are {info, parts}`,
        ],
      }
    }
  }
  if (isObject(value.session) && Array.isArray(value.messages)) {
    const rows = value.messages.filter(isSqliteRow).length
    if (rows > 0) {
      return {
        shape: 'sqlite',
        evidence: [
          'object with `session` + `messages[].data`',
          `${rows} message rows with \`data\``,
        ],
      }
    }
  }
  const sessionInfo = isObject(info) && !('messages' in value) ? info : value
  if (
    hasPrefix(sessionInfo.id, 'ses_') &&
    !('messages' in value) &&
    (isObject(sessionInfo.time) || typeof sessionInfo.projectID === 'string')
  ) {
    return {
      shape: 'session-only',
      evidence: ['a Session.Info object (`id` ses_…) with no messages'],
    }
  }
  return null
}

/** Detection per formats.md §16 rule 4/5: structure first; the file name only adds evidence. */
export function detect(input: SniffedInput): Detection | null {
  if (input.kind !== 'json') return null
  const found = opencodeShape(input.value)
  if (!found) return null
  const evidence = [...found.evidence]
  let confidence: number
  switch (found.shape) {
    case 'export':
      confidence = hasPrefix(
        isObject(input.value) && isObject(input.value.info) ? input.value.info.id : '',
        'ses_',
      )
        ? 0.97
        : 0.8
      break
    case 'messages': {
      const first = (input.value as unknown[])[0]
      const id = isObject(first) && isObject(first.info) ? str(first.info.id) : undefined
      confidence = id?.startsWith('msg_') ? 0.95 : 0.85
      if (id?.startsWith('msg_')) evidence.push('message ids start with `msg_`')
      break
    }
    case 'sqlite':
      confidence = 0.9
      break
    case 'session-only':
      // Not a transcript: claimed so the user gets a clear explanation instead of "unknown".
      confidence = 0.3
      break
  }
  return { format: 'opencode', confidence, evidence }
}
