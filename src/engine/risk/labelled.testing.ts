/**
 * Hand-labelled risk cases (test-only). Each case is a short agent transcript, the groups a
 * config removes from it, and — for each removed group — whether the agent *really* used that
 * content later (judged by reading the transcript as a person would, not by running the check).
 * Some cases are labelled the way the detector is known to get wrong (a paraphrase, a plain
 * word, a natural name the agent would invent anyway): the measured precision and recall are
 * honest figures, not 1.0 by construction.
 */
import type { LabelledCase } from './labelled-kit.testing.ts'
import { MIXED_CASES } from './labelled-mixed.testing.ts'
import { NEGATIVE_CASES } from './labelled-negative.testing.ts'
import { POSITIVE_CASES } from './labelled-positive.testing.ts'

export type { LabelledCase } from './labelled-kit.testing.ts'

/** Positives (the agent used the removed content), negatives, then later cases of both kinds. */
export const LABELLED_CASES: readonly LabelledCase[] = [
  ...POSITIVE_CASES,
  ...NEGATIVE_CASES,
  ...MIXED_CASES,
]
