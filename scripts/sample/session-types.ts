/** Shapes shared by the session writer, the tool builders and the generators. */

export interface ToolOutcome {
  /** What the model sees (tool_result.content). */
  readonly content: string
  readonly isError: boolean
  /** The CLI's tool-specific metadata (object, or a string for errors). */
  readonly toolUseResult: unknown
  /** How long the tool ran; advances the clock. */
  readonly ms: number
  /** Skill instructions: the CLI writes them as an isMeta user line right after the result. */
  readonly metaFollowUp?: string
}

export interface ToolCall {
  readonly name: string
  readonly input: Record<string, unknown>
  readonly outcome: ToolOutcome
}

export interface StepSpec {
  readonly thinking?: string
  readonly text?: string
  readonly calls: readonly ToolCall[]
  /** Order the results are written in (indices into `calls`); default is call order. */
  readonly resultOrder?: readonly number[]
}

export interface SessionOptions {
  readonly sessionId: string
  readonly cwd: string
  readonly version: string
  readonly gitBranch: string
  readonly model: string
  /** Epoch ms of the first line; fixed so output never depends on the clock. */
  readonly baseTime: number
}

export interface SessionStats {
  lines: number
  /** Canonical messages: user lines + assistant API messages (merged by message.id). */
  messages: number
  realPrompts: number
  injected: number
  toolCalls: Record<string, number>
  parallelMessages: number
  outOfOrder: number
  errors: number
  thinking: number
}

// Why: the model's context is roughly chars/3.6 tokens for code-heavy English; exact counts
// are not needed, only plausible growth.
export const estimateTokens = (text: string): number => Math.ceil(text.length / 3.6)

const nativeBuffer = (globalThis as { Buffer?: { byteLength(s: string, enc: 'utf8'): number } })
  .Buffer

/** UTF-8 byte length without Buffer/TextEncoder, so this also runs in a browser. */
export function utf8Length(s: string): number {
  // Node's native count is ~10x faster than the loop; the loop is the browser fallback.
  if (nativeBuffer) return nativeBuffer.byteLength(s, 'utf8')
  let n = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) continue
    if (c < 0x800) n += 1
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 2 // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++
    } else n += 2
  }
  return n
}
