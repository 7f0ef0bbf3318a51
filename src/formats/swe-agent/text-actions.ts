/**
 * Text-action agents: SWE-agent 0.x and mini-swe-agent act by writing one command in a fenced
 * block of their reply, and the environment answers with the output as the next *user* message.
 * Read literally that is prose and user turns, so no tool-result strategy can touch it. Here the
 * fenced command becomes a `tool_call` and the observation a `tool_result`, both flagged
 * `derivedFrom: 'text'`; the serializer writes them back as the text they came from.
 *
 * Conservative on purpose: only in these formats (known text-action agents, never a chat
 * format), only when the command is unambiguous — SWE-agent 0.x: the item's `action` equals the
 * body of a fenced block of its `content`; mini-swe-agent: exactly one ```bash block — and only a
 * plain user message right after the reply counts as its observation.
 */
import type { TextPart, ToolCallPart, ToolResultPart } from '../../engine/model.ts'
import { callFromRawArgs } from '../util.ts'

/** Where the command sits in the reply: the text before and after the fenced block, and the block. */
export interface TextAction {
  readonly before: string
  /** The fenced block exactly as written, fences included. */
  readonly fence: string
  readonly after: string
  /** The command as the agent ran it (the block's body). */
  readonly command: string
}

/** The tool name derived calls carry: both agents run their commands in a bash session. */
export const TEXT_ACTION_TOOL = 'bash'

const FENCE = /```([^\n`]*)\n([\s\S]*?)\n?```/g

/**
 * The fenced command of an assistant reply. `action` is the SWE-agent 0.x `action` field (the
 * block whose body equals it, the last one when several do); without it (mini-swe-agent) the
 * reply must hold exactly one ```bash block. Null when neither holds.
 */
export function findTextAction(content: string, action: string | undefined): TextAction | null {
  const blocks = [...content.matchAll(FENCE)]
  let hit: RegExpExecArray | RegExpMatchArray | undefined
  if (action !== undefined) {
    const want = action.trim()
    if (want === '') return null
    for (const m of blocks) if ((m[2] ?? '').trim() === want) hit = m
  } else {
    const bash = blocks.filter((m) => (m[1] ?? '').trim() === 'bash')
    if (bash.length === 1) hit = bash[0]
  }
  if (!hit || hit.index === undefined) return null
  const command = (hit[2] ?? '').trim()
  if (command === '') return null
  return {
    before: content.slice(0, hit.index),
    fence: hit[0],
    after: content.slice(hit.index + hit[0].length),
    command,
  }
}

/**
 * The parts of a reply with its command as a derived call: [text before], call, [text after].
 * The call has no id (the source has none: the engine pairs it with the next message's result by
 * position), so a compacted file reads back with the same calls.
 */
export function actionParts(found: TextAction): (TextPart | ToolCallPart)[] {
  const call = callFromRawArgs(
    {
      callId: null,
      name: TEXT_ACTION_TOOL,
      derivedFrom: 'text',
      meta: { fence: found.fence, command: found.command },
    },
    JSON.stringify({ command: found.command }),
  )
  return [
    ...(found.before !== '' ? [{ kind: 'text' as const, text: found.before }] : []),
    call,
    ...(found.after !== '' ? [{ kind: 'text' as const, text: found.after }] : []),
  ]
}

/** The observation as the derived result of the call before it (no id, as the call). */
export function observationPart(content: ToolResultPart['content']): ToolResultPart {
  return {
    kind: 'tool_result',
    callId: null,
    name: TEXT_ACTION_TOOL,
    content,
    isError: false,
    derivedFrom: 'text',
  }
}

/**
 * A derived call written back as text: the original block when the command is unchanged, else the
 * block with the new command (a strategy rewrote the arguments) in the same fences.
 */
export function actionText(part: ToolCallPart): string {
  const fence = typeof part.meta?.fence === 'string' ? part.meta.fence : null
  const original = typeof part.meta?.command === 'string' ? part.meta.command : null
  const args = part.args
  const now =
    args !== null && typeof args === 'object' && 'command' in args
      ? (args as { command: unknown }).command
      : undefined
  const command = typeof now === 'string' ? now : (original ?? '')
  if (fence !== null && command === original) return fence
  const open = fence?.match(/^```[^\n`]*\n/)?.[0] ?? '```\n'
  return `${open}${command}\n\`\`\``
}
