/**
 * `clear-tool-uses` → `new ClearToolUsesEdit({…})` and `summarize` → `summarizationMiddleware({…})`
 * (langchain 1.x JS option names and defaults).
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import type { LossyWarning } from '../types.ts'
import { andAlternatives, targetLost, triggerAlternatives, type ContextSize } from './triggers.ts'
import { Code, ts, type TsValue } from './ts.ts'

type Step = CompactionConfig['pipeline'][number]

export interface Env {
  readonly usable: number
  readonly warnings: LossyWarning[]
  readonly protectedTools: readonly string[]
  /** Clauses of the export's one-line summary, one per middleware, in the order they act. */
  readonly does: string[]
}

/** `[{tokens: 100001}]` → "its count of the request reaches 100,001 tokens". */
function triggerWords(value: TsValue): string {
  const list = (Array.isArray(value) ? value : [value]) as ContextSize[]
  const one = (c: ContextSize) =>
    [
      c.tokens !== undefined ? `${fmtInt(c.tokens)} tokens` : null,
      c.messages !== undefined ? `${fmtInt(c.messages)} messages` : null,
    ]
      .filter(Boolean)
      .join(' and ')
  return list.map(one).join(' or ')
}

function fmtInt(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** LangChain needs some trigger (none means "never"); `{messages: 1}` is "any conversation". */
function triggerValue(alts: readonly ContextSize[]): TsValue {
  const list = alts.length === 0 ? [{ messages: 1 }] : alts
  return list.length === 1 ? (list[0] as TsValue) : (list as TsValue)
}

export function clearToolUsesEdit(step: Step, i: number, env: Env): string {
  const p = step.params
  const w = env.warnings
  const at = (k: string) => `pipeline[${i}].params.${k}`
  const own: ContextSize[] = []
  if (typeof p.triggerInputTokens === 'number') own.push({ tokens: p.triggerInputTokens + 1 })
  if (typeof p.triggerToolUses === 'number') {
    w.push({
      path: at('triggerToolUses'),
      message: 'ClearToolUsesEdit counts all messages, not tool uses, in its trigger.',
      instead:
        own.length > 0 ? 'Only the token trigger is kept.' : 'It clears on every model call.',
    })
  }
  const stepAlts = triggerAlternatives(step.trigger, `pipeline[${i}].trigger`, env.usable, w)
  targetLost(step, i, w)
  if (typeof p.clearAtLeast === 'number' && p.clearAtLeast > 0) {
    w.push({
      path: at('clearAtLeast'),
      message:
        'LangChain’s (deprecated) clearAtLeast clears more of the kept results to reach the amount; it never skips an edit that frees too little.',
      instead: 'Old results are cleared whatever the saving.',
    })
  }
  let clearToolInputs = p.clearToolInputs === true
  if (Array.isArray(p.clearToolInputs)) {
    clearToolInputs = false
    w.push({
      path: at('clearToolInputs'),
      message:
        'ClearToolUsesEdit clears the inputs of all tools or of none; it takes no list of tool names.',
      instead: 'clearToolInputs: false (every tool input is kept).',
    })
  }
  // Protected tools are never modified: LangChain's excludeTools gives exactly that.
  const exclude = [
    ...new Set([
      ...(Array.isArray(p.excludeTools) ? (p.excludeTools as string[]) : []),
      ...env.protectedTools,
    ]),
  ]
  const trigger = triggerValue(andAlternatives(stepAlts, own))
  const keep = typeof p.keep === 'number' ? p.keep : 3
  const placeholder = typeof p.placeholder === 'string' ? p.placeholder : '[cleared]'
  const options: Record<string, TsValue> = {
    trigger,
    keep: { messages: keep },
    excludeTools: exclude,
    clearToolInputs,
    placeholder,
  }
  env.does.push(
    `replaces the results of all but the ${keep} most recent tool messages${exclude.length > 0 ? ` (never ${exclude.join(', ')})` : ''} with ${JSON.stringify(placeholder)}${clearToolInputs ? ' and empties their calls’ arguments' : ''} in the request once it counts ${triggerWords(trigger)} (the agent’s state keeps the originals)`,
  )
  return `new ClearToolUsesEdit(${ts(options, '      ')})`
}

export function summarization(step: Step, i: number, env: Env): string {
  const p = step.params
  const w = env.warnings
  const at = (k: string) => `pipeline[${i}].params.${k}`
  const warn = (key: string, message: string, instead: string) =>
    w.push({ path: at(key), message, instead })
  // The @falai gate: at or over maxTokens × threshold — LangChain's own ">=" semantics.
  const gate: ContextSize[] = []
  if (typeof p.compactionThreshold === 'number') {
    const max = typeof p.maxTokens === 'number' ? p.maxTokens : env.usable
    gate.push({ tokens: Math.ceil(max * p.compactionThreshold) })
  }
  const stepAlts = triggerAlternatives(step.trigger, `pipeline[${i}].trigger`, env.usable, w)
  targetLost(step, i, w)
  let keep = typeof p.preserveRecentMessages === 'number' ? p.preserveRecentMessages : 4
  if (typeof p.preserveRecentGroups === 'number') {
    keep = p.preserveRecentGroups
    warn(
      'preserveRecentGroups',
      'summarizationMiddleware keeps messages or tokens, not groups.',
      `keep: { messages: ${keep} } (it never splits a tool call from its results).`,
    )
  }
  if (p.role !== 'user') {
    warn(
      'role',
      `summarizationMiddleware always inserts the summary as a HumanMessage, not with the ${String(p.role)} role.`,
      'A user (human) message.',
    )
  }
  const maxIn = p.maxSummaryInputTokens
  if (typeof maxIn === 'number') {
    warn(
      'maxSummaryInputTokens',
      'trimTokensToSummarize keeps only the newest tokens of the messages being summarised; the older ones are dropped from the history rather than left verbatim.',
      `trimTokensToSummarize: ${maxIn}.`,
    )
  }
  warn(
    'maxOutputTokens',
    'summarizationMiddleware has no output-length option.',
    'The summary model’s own maxTokens setting applies.',
  )
  warn(
    'onFailure',
    'summarizationMiddleware is not fail-open and never truncates instead: when the model call fails, the history is still replaced.',
    'The summary becomes the text "Error generating summary: …".',
  )
  // Found by the differential check (src/export/conformance): the middleware replaces the older
  // messages on every call its trigger holds (summarization.js beforeModel: no check of what the
  // summary saves), where our step keeps them when the summary would not be smaller — its own
  // earlier summary, a short message.
  w.push({
    path: `pipeline[${i}].strategy`,
    message:
      'summarizationMiddleware summarises on every model call its trigger holds, even when the summary is no smaller than what it replaces (its own earlier summary, or one short message before the kept ones).',
    instead:
      'A new summary (one summariser call) where the lab keeps the messages; the kept messages are the same.',
  })
  if (p.faithful === true) {
    warn(
      'faithful',
      'The @falai/agent bugs reproduced by faithful mode are not LangChain’s.',
      'LangChain’s own behaviour.',
    )
  }
  const prompt = typeof p.prompt === 'string' ? p.prompt : ''
  const prefix = summaryPrefix(typeof p.summaryPrefix === 'string' ? p.summaryPrefix : '', warn)
  const trigger = triggerValue(andAlternatives(stepAlts, gate))
  const options: Record<string, TsValue | undefined> = {
    model: new Code('summaryModel'),
    trigger,
    keep: { messages: keep },
    // Our prompt is followed by the transcript; LangChain substitutes it for {messages}.
    summaryPrompt: `${prompt}\n\n{messages}`,
    summaryPrefix: prefix,
    // Unset means LangChain's 4,000-token bound (summarization.ts DEFAULT_TRIM_TOKEN_LIMIT);
    // a bound no history reaches is how "send the whole history" is spelt.
    trimTokensToSummarize: typeof maxIn === 'number' ? maxIn : new Code('Number.MAX_SAFE_INTEGER'),
  }
  env.does.push(
    `replaces everything before the last ${keep} messages (never splitting a tool call from its results) with one human message holding a summary once it counts ${triggerWords(trigger)}`,
  )
  return `summarizationMiddleware(${ts(options, '  ')})`
}

/**
 * summarizationMiddleware writes the summary message as `${summaryPrefix}\n\n${summary}`
 * (langchain 1.5.14, dist/agents/middleware/summarization.js, beforeModel), and an unset prefix
 * means its own "Here is a summary of the conversation to date:". Ours is written verbatim
 * before the summary, so it maps exactly only when it ends in a blank line; an empty prefix — "no
 * prefix" — cannot be had at all (an empty string would start the summary with a blank line).
 */
function summaryPrefix(
  ours: string,
  warn: (key: string, message: string, instead: string) => void,
): string | undefined {
  const body = ours.replace(/\s+$/, '')
  if (body === '') {
    warn(
      'summaryPrefix',
      'summarizationMiddleware always starts the summary message with a prefix line and a blank line; this step has no prefix.',
      'LangChain’s own prefix, "Here is a summary of the conversation to date:", then a blank line.',
    )
    return undefined
  }
  if (`${body}\n\n` !== ours)
    warn(
      'summaryPrefix',
      'summarizationMiddleware separates the prefix from the summary with a blank line.',
      `${JSON.stringify(body)}, a blank line, then the summary.`,
    )
  return body
}
