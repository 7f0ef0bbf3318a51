/**
 * One module per system a user runs (SPEC §7): each turns our validated config into that system's
 * own configuration text, and lists every part of our config it cannot express together with what
 * the target will do instead. Pure functions over data — no DOM, no Node APIs — so the worker (the
 * app's Export dialog) and the CLI (`export-config --target`) share them.
 */
import type { CompactionConfig } from '../../config/schema.ts'

export type TargetId =
  'lip' | 'opencode' | 'anthropic' | 'falai' | 'maf' | 'langchain' | 'adachsoft'

/** Something our config says that the target cannot carry over, and what it does instead. */
export interface LossyWarning {
  /** Where in our config the thing lives, e.g. `pipeline[2].params.keepLast` or `protections.pinned`. */
  readonly path: string
  /** What is lost (one sentence, names the target's limitation). */
  readonly message: string
  /** What the target will do instead (its default or nearest behaviour). */
  readonly instead: string
}

/** The translated configuration, ready to paste into the target system. */
export interface TargetOutput {
  readonly target: TargetId
  /** Suggested file name for a download (`config.yaml`, `opencode.json`, `compaction.ts`, …). */
  readonly fileName: string
  /** Syntax of `text`, for highlighting and for tests that parse it. */
  readonly language: 'yaml' | 'json' | 'jsonc' | 'typescript' | 'python' | 'php' | 'text'
  readonly text: string
  /**
   * What the real system will do with this file, in one plain sentence computed from the config
   * ("clears tool results older than the 8 most recent once the input passes 100,000 tokens").
   * It is also the first line of `text` wherever the format has comments; a JSON fragment that
   * goes into an API request (Anthropic) cannot carry it, so there it is shown beside the text.
   */
  readonly summary: string
  /** Every part of the config the target could not express; empty for a faithful export. */
  readonly warnings: readonly LossyWarning[]
  /** Extra instructions (e.g. the Anthropic beta header to send), shown next to the output. */
  readonly notes: readonly string[]
}

export interface ExportTarget {
  readonly id: TargetId
  /** Human name: "llm-interactive-proxy", "opencode", … */
  readonly label: string
  /** The preset whose config this target reproduces: exporting it must give no warnings. */
  readonly preset: string
  export(config: CompactionConfig): TargetOutput
}
