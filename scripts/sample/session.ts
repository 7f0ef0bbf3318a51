/**
 * Writes a Claude Code session JSONL the way the CLI does (formats.md §6): one content block per
 * assistant line (lines of one API response share `message.id`/`requestId` and carry a usage
 * snapshot), one tool_result per user line, a uuid/parentUuid chain, increasing timestamps.
 */
import type { Rng } from './prng.ts'
import {
  estimateTokens,
  utf8Length,
  type SessionOptions,
  type SessionStats,
  type StepSpec,
  type ToolCall,
} from './session-types.ts'

export * from './session-types.ts'

// System prompt + tool definitions that the CLI keeps cached across sessions.
const SYSTEM_CACHED = 14_382
const PROJECT_CONTEXT = 2_917

export class ClaudeSession {
  private readonly out: string[] = []
  private byteCount = 0
  private parent: string | null = null
  private clock: number
  private branch: string
  private cached = SYSTEM_CACHED
  private pending = PROJECT_CONTEXT
  private readonly dirty = new Set<string>()
  private readonly tracked = new Map<string, { name: string; version: number; time: string }>()
  readonly stats: SessionStats = {
    lines: 0,
    messages: 0,
    realPrompts: 0,
    injected: 0,
    toolCalls: {},
    parallelMessages: 0,
    outOfOrder: 0,
    errors: 0,
    thinking: 0,
  }

  private readonly rng: Rng
  private readonly opts: SessionOptions

  constructor(rng: Rng, opts: SessionOptions) {
    this.rng = rng
    this.opts = opts
    this.clock = opts.baseTime
    this.branch = opts.gitBranch
  }

  setBranch(branch: string): void {
    this.branch = branch
  }

  /** The session clock (epoch ms), for outputs that print times. */
  now(): number {
    return this.clock
  }

  /** Current context size as the last usage snapshot would report it. */
  contextTokens(): number {
    return this.cached + this.pending
  }

  private tick(minMs: number, maxMs: number): string {
    this.clock += this.rng.int(minMs, maxMs)
    return new Date(this.clock).toISOString()
  }

  private push(record: Record<string, unknown>): void {
    const line = JSON.stringify(record)
    this.out.push(line)
    this.byteCount += utf8Length(line) + 1
    this.stats.lines++
  }

  /** UTF-8 size of the lines written so far (what the file will weigh, minus the title line). */
  bytes(): number {
    return this.byteCount
  }

  private envelope(type: string): Record<string, unknown> {
    return {
      parentUuid: this.parent,
      isSidechain: false,
      userType: 'external',
      cwd: this.opts.cwd,
      sessionId: this.opts.sessionId,
      version: this.opts.version,
      gitBranch: this.branch,
      type,
    }
  }

  private userLine(
    content: unknown,
    extra: Record<string, unknown>,
    delay: [number, number],
  ): string {
    const uuid = this.rng.uuid()
    const timestamp = this.tick(delay[0], delay[1])
    this.push({
      ...this.envelope('user'),
      message: { role: 'user', content },
      uuid,
      timestamp,
      ...extra,
    })
    this.parent = uuid
    this.stats.messages++
    return uuid
  }

  /** A real human prompt, preceded by the checkpoint line the CLI writes for each prompt. */
  prompt(text: string): void {
    const uuid = this.rng.uuid()
    const time = this.tick(40_000, 360_000)
    for (const path of [...this.dirty].sort()) {
      const prev = this.tracked.get(path)
      const name = prev?.name ?? `${this.rng.hex(16)}@v`
      this.tracked.set(path, { name, version: (prev?.version ?? 0) + 1, time })
    }
    this.dirty.clear()
    const backups: Record<string, unknown> = {}
    for (const [path, b] of this.tracked) {
      backups[path] = { backupFileName: b.name + b.version, version: b.version, backupTime: b.time }
    }
    this.push({
      type: 'file-history-snapshot',
      messageId: uuid,
      snapshot: { messageId: uuid, trackedFileBackups: backups, timestamp: time },
      isSnapshotUpdate: false,
    })
    this.push({
      ...this.envelope('user'),
      message: { role: 'user', content: text },
      uuid,
      timestamp: time,
    })
    this.parent = uuid
    this.stats.messages++
    this.stats.realPrompts++
    this.pending += estimateTokens(text)
  }

  /** Injected user content (caveats, command wrappers, reminders): not a real prompt. */
  injected(content: string | ReadonlyArray<{ type: 'text'; text: string }>, meta: boolean): void {
    this.userLine(content, meta ? { isMeta: true } : {}, [20, 900])
    this.stats.injected++
    this.pending += estimateTokens(typeof content === 'string' ? content : JSON.stringify(content))
  }

  /** One API response: optional thinking and text, then tool calls; then their results. */
  step(spec: StepSpec): void {
    const stop = spec.calls.length > 0 ? 'tool_use' : 'end_turn'
    const ids = spec.calls.map(() => `toolu_01${this.rng.base62(22)}`)
    const blocks: Array<Record<string, unknown>> = []
    if (spec.thinking) {
      blocks.push({ type: 'thinking', thinking: spec.thinking, signature: this.signature() })
      this.stats.thinking++
    }
    if (spec.text) blocks.push({ type: 'text', text: spec.text })
    spec.calls.forEach((call, i) => {
      blocks.push({ type: 'tool_use', id: ids[i], name: call.name, input: call.input })
      this.stats.toolCalls[call.name] = (this.stats.toolCalls[call.name] ?? 0) + 1
    })
    const lineUuids = this.assistantLines(blocks, stop)
    if (spec.calls.length > 1) this.stats.parallelMessages++

    const order = spec.resultOrder ?? spec.calls.map((_, i) => i)
    if (order.some((v, i) => v !== i)) this.stats.outOfOrder++
    const toolLineOffset = blocks.length - spec.calls.length
    for (const i of order) {
      const call = spec.calls[i] as ToolCall
      const o = call.outcome
      const block: Record<string, unknown> = {
        tool_use_id: ids[i],
        type: 'tool_result',
        content: o.content,
      }
      if (o.isError) block.is_error = true
      else if (call.name === 'Bash') block.is_error = false
      if (o.isError) this.stats.errors++
      const extra = {
        toolUseResult: o.toolUseResult,
        sourceToolAssistantUUID: lineUuids[toolLineOffset + i],
      }
      this.userLine([block], extra, [Math.max(5, o.ms - 40), o.ms + 40])
      this.pending += estimateTokens(o.content)
      if (o.metaFollowUp) {
        this.userLine(
          [{ type: 'text', text: o.metaFollowUp }],
          { isMeta: true, sourceToolUseID: ids[i] },
          [3, 30],
        )
        this.stats.injected++
        this.pending += estimateTokens(o.metaFollowUp)
      }
      const path = call.input.file_path
      if (
        (call.name === 'Edit' || call.name === 'Write') &&
        !o.isError &&
        typeof path === 'string'
      ) {
        this.dirty.add(
          path.startsWith(this.opts.cwd + '/') ? path.slice(this.opts.cwd.length + 1) : path,
        )
      }
    }
  }

  /** A turn-ending answer with no tool calls. */
  reply(text: string, thinking?: string): void {
    this.step({ thinking, text, calls: [] })
  }

  // Real signatures are opaque base64 of a few hundred bytes; length varies with the thinking.
  private signature(): string {
    return 'Eq' + this.rng.base64(this.rng.int(280, 1100))
  }

  private assistantLines(blocks: ReadonlyArray<Record<string, unknown>>, stop: string): string[] {
    const msgId = `msg_01${this.rng.base62(22)}`
    const requestId = `req_011C${this.rng.base62(18)}`
    const outputTokens = blocks.reduce((n, b) => n + estimateTokens(JSON.stringify(b)) + 4, 0)
    const partial = this.rng.int(1, 12)
    const usageBase = {
      input_tokens: this.rng.int(1, 9),
      cache_creation_input_tokens: this.pending,
      cache_read_input_tokens: this.cached,
    }
    const uuids: string[] = []
    blocks.forEach((block, i) => {
      const last = i === blocks.length - 1
      const uuid = this.rng.uuid()
      // The first block waits for time-to-first-token; later ones stream in quickly.
      const timestamp =
        i === 0 ? this.tick(1_500, 6_000) : this.tick(80 + outputTokens, 900 + outputTokens * 4)
      this.push({
        ...this.envelope('assistant'),
        message: {
          id: msgId,
          type: 'message',
          role: 'assistant',
          model: this.opts.model,
          content: [block],
          stop_reason: last ? stop : null,
          stop_sequence: null,
          usage: {
            ...usageBase,
            cache_creation: {
              ephemeral_5m_input_tokens: usageBase.cache_creation_input_tokens,
              ephemeral_1h_input_tokens: 0,
            },
            // A running value: early blocks show the first streamed count, the last the total.
            output_tokens: last ? outputTokens : partial,
            service_tier: 'standard',
          },
        },
        requestId,
        uuid,
        timestamp,
      })
      this.parent = uuid
      uuids.push(uuid)
    })
    this.stats.messages++
    this.cached += this.pending + usageBase.input_tokens
    this.pending = outputTokens
    return uuids
  }

  /** The finished JSONL: a session-title line first, like the CLI leaves after it names a chat. */
  finish(title: string): string {
    const summary = JSON.stringify({ type: 'summary', summary: title, leafUuid: this.parent })
    this.stats.lines++
    return [summary, ...this.out].join('\n') + '\n'
  }
}
