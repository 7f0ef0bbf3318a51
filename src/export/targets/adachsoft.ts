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

function params(step: Step | undefined, tools: readonly string[]): Record<string, PhpValue> {
  const p = step?.params ?? {}
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
    if (!chosen) {
      w.push({
        path: 'pipeline',
        message:
          'The config has no enabled tool-payload-trim step, but selecting tool_compaction always trims.',
        instead: `adachsoft's defaults: fields over ${DEFAULT_TRIM_BYTES} bytes in older calls and results are omitted.`,
      })
    }
    const notes: string[] = [
      'Select the strategy with conversationContextStrategyId = ToolCompactionStrategyParams::STRATEGY_ID ("tool_compaction") and register ToolCompactionConversationContextStrategy on the AiAgentBuilder.',
    ]
    if (chosen && chosen.params.faithful !== true) {
      notes.push(
        'adachsoft keeps two bugs this config fixes: on a second pass it trims its own _tool_compaction meta as an ordinary field, and it applies trims that make a payload bigger.',
      )
    }
    const text = [
      '<?php',
      '',
      'declare(strict_types=1);',
      '',
      `// Compaction Lab config "${config.name.replace(/[\r\n]/g, ' ')}" for adachsoft/ai-agent-context-tool-compaction (tool_compaction).`,
      '// Generated: compare the lossy-export warnings shown with it before relying on it.',
      "// Use: $config->conversationContextStrategyParams = require __DIR__ . '/tool-compaction.php';",
      `return ${php(params(chosen, config.protections.tools))};`,
      '',
    ].join('\n')
    return {
      target: 'adachsoft',
      fileName: 'tool-compaction.php',
      language: 'php',
      text,
      warnings: w,
      notes,
    }
  },
}
