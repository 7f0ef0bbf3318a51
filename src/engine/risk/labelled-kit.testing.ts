// The labelled risk cases' shape and the helpers both halves of the set share (test-only).
import type { Removal, Step } from './builder.testing.ts'
import type { Conversation } from '../model.ts'

export interface LabelledCase {
  readonly name: string
  readonly steps: readonly Step[]
  readonly removals: readonly Removal[]
  /** Steps (of the removed ones) whose content the agent used later; the rest were not used. */
  readonly used: readonly number[]
  /** Strings expected among the evidence of the used groups. */
  readonly evidence?: readonly string[]
  /** The same per used step, when a case has several. */
  readonly evidenceByStep?: Readonly<Record<number, readonly string[]>>
  readonly extra?: Partial<Conversation>
}

export const ex = (step: number): Removal => ({ step, how: 'exclude' })
export const FIX = { user: 'The config loader crashes on empty files, please fix it.' }
