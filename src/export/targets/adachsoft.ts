/**
 * adachsoft/ai-agent-context-tool-compaction export: the `tool-payload-trim` step as the
 * `conversationContextStrategyParams` array of the `tool_compaction` strategy (v0.2.0 keys
 * `inputTrimBytes`, `outputTrimBytes`, `excludedTools`, `toolIdentifierFields`), written as a PHP
 * file that returns the array.
 *
 * adachsoft runs on every request and does nothing but trim older tool payloads, so every other
 * strategy, every trigger/target and the fallback are lost. Our fixes of its bugs
 * (`faithful: false`) cannot be carried into PHP; they are listed as notes rather than warnings,
 * because the same fixed settings are what the `adachsoft` preset reproduces.
 */
import type { CompactionConfig } from '../../config/schema.ts'
import { php, type PhpValue } from './adachsoft/php.ts'
import { exporterName, oneLine } from './index-helpers.ts'
import type { ExportTarget, LossyWarning, TargetOutput } from './types.ts'

type Step = CompactionConfig['pipeline'][number]

/** adachsoft's documented defaults (README "Configuration"). */
const DEFAULT_TRIM_BYTES = 100

function stepWarnings(step: Step, i: number, w: LossyWarning[]): void {
  if (step.trigger) {
    w.push({
      path: `pipeline[${i}].trigger`,
      message: 'tool_compaction has no trigger; it runs on every request.',
      instead: 'Older payloads are trimmed whatever the context size.',
    })
  }
  if (step.target) {
    w.push({
      path: `pipeline[${i}].target`,
      message: 'tool_compaction has no target to stop at.',
      instead: 'Every older payload over the limits is trimmed.',
    })
  }
}

function configWarnings(config: CompactionConfig, w: LossyWarning[]): void {
  const pr = config.protections
  if (pr.recentTurns > 0) {
    w.push({
      path: 'protections.recentTurns',
      message: 'tool_compaction cannot protect the last user turns.',
      instead: 'Only the latest call and result of each {tool, identifier} key stay intact.',
    })
  }
  if (pr.pinned.length > 0) {
    w.push({
      path: 'protections.pinned',
      message: 'tool_compaction cannot pin messages.',
      instead: 'Pinned tool payloads are trimmed like any other.',
    })
  }
  if (config.fallback.enabled) {
    w.push({
      path: 'fallback',
      message: 'tool_compaction never drops messages, so there is no fallback.',
      instead: 'The context may stay over the window.',
    })
  }
}

function params(step: Step, tools: readonly string[]): Record<string, PhpValue> {
  const p = step.params
  const excluded = Array.isArray(p.excludedTools) ? (p.excludedTools as string[]) : []
  const ids =
    p.toolIdentifierFields && typeof p.toolIdentifierFields === 'object'
      ? (p.toolIdentifierFields as Record<string, string[]>)
      : {}
  return {
    inputTrimBytes: typeof p.inputTrimBytes === 'number' ? p.inputTrimBytes : DEFAULT_TRIM_BYTES,
    outputTrimBytes: typeof p.outputTrimBytes === 'number' ? p.outputTrimBytes : DEFAULT_TRIM_BYTES,
    // Protected tools are never modified: excludedTools means exactly that in adachsoft.
    excludedTools: [...new Set([...excluded, ...tools])],
    toolIdentifierFields: ids,
  }
}

/** The one-line account of what tool_compaction does with these params (seed README v0.2.0). */
function describe(values: Record<string, PhpValue>): string {
  const excluded = values.excludedTools as readonly string[]
  const ids = Object.keys(values.toolIdentifierFields as Record<string, PhpValue>)
  return [
    `adachsoft’s agent, on every request, keeps the latest call and result of each tool`,
    ids.length > 0 ? ` (of each ${ids.join('/')} identifier)` : '',
    ` intact and replaces older top-level argument fields over ${String(values.inputTrimBytes)} bytes and result fields over ${String(values.outputTrimBytes)} bytes with "[omitted]"`,
    excluded.length > 0 ? `, never touching ${excluded.join(', ')}` : '',
    '.',
  ].join('')
}

/** adachsoft tool_compaction; reproduces the `adachsoft` preset with no loss. */
export const adachsoftTarget: ExportTarget = {
  id: 'adachsoft',
  label: 'adachsoft/ai-agent-context-tool-compaction',
  preset: 'adachsoft',
  export(config: CompactionConfig): TargetOutput {
    const w: LossyWarning[] = []
    configWarnings(config, w)
    let chosen: Step | undefined
    config.pipeline.forEach((step, i) => {
      if (!step.enabled) return
      if (step.strategy !== 'tool-payload-trim') {
        w.push({
          path: `pipeline[${i}]`,
          message: `adachsoft's tool_compaction only trims tool payloads; it has no equivalent of ${step.strategy}.`,
          instead: 'The step is left out.',
        })
      } else if (chosen) {
        w.push({
          path: `pipeline[${i}]`,
          message: 'adachsoft takes one tool_compaction parameter set per agent.',
          instead: 'Only the first tool-payload-trim step is exported.',
        })
      } else {
        chosen = step
        stepWarnings(step, i, w)
      }
    })
    const name = JSON.stringify(oneLine(config.name))
    if (!chosen) {
      // Every other target writes "off" for a config that never trims payloads; selecting
      // tool_compaction with any params array would trim with its defaults (100/100 bytes), so
      // off is spelt by not selecting the strategy at all.
      const summary =
        'adachsoft’s agent leaves tool payloads as they are: tool_compaction is not selected.'
      return {
        target: 'adachsoft',
        fileName: 'tool-compaction.php',
        language: 'php',
        text: [
          `<?php // ${summary}`,
          '',
          'declare(strict_types=1);',
          '',
          `// Config ${name} for adachsoft/ai-agent-context-tool-compaction, exported by ${exporterName()}.`,
          '// It has no enabled tool-payload-trim step: leave conversationContextStrategyId unset (do not',
          '// select "tool_compaction"), and there are no params to pass.',
          'return null;',
          '',
        ].join('\n'),
        summary,
        warnings: w,
        notes: [],
      }
    }
    const notes: string[] = [
      'Select the strategy with conversationContextStrategyId = ToolCompactionStrategyParams::STRATEGY_ID ("tool_compaction") and register ToolCompactionConversationContextStrategy on the AiAgentBuilder.',
    ]
    if (chosen.params.faithful !== true) {
      notes.push(
        'adachsoft keeps two bugs this config fixes: on a second pass it trims its own _tool_compaction meta as an ordinary field, and it applies trims that make a payload bigger.',
      )
    }
    const values = params(chosen, config.protections.tools)
    const summary = describe(values)
    const text = [
      `<?php // ${summary}`,
      '',
      'declare(strict_types=1);',
      '',
      `// Config ${name} for adachsoft/ai-agent-context-tool-compaction (tool_compaction), exported by ${exporterName()}.`,
      '// Compare the lossy-export warnings shown with it before relying on it.',
      "// Use: $config->conversationContextStrategyParams = require __DIR__ . '/tool-compaction.php';",
      `return ${php(values)};`,
      '',
    ].join('\n')
    return {
      target: 'adachsoft',
      fileName: 'tool-compaction.php',
      language: 'php',
      text,
      summary,
      warnings: w,
      notes,
    }
  },
}
