/** Input `index` of a run with seed `runSeed`: which file, which mutations, which bytes. */
import { applyMutations, randomPlan, type MutatedInput, type Mutation } from './mutate.ts'
import { rngFor, startText, type Seed } from './seeds.ts'
import type { Rng } from '../sample/prng.ts'

export interface FuzzInput extends MutatedInput {
  readonly seedName: string
  readonly plan: readonly Mutation[]
  /** The PRNG after drawing the input: the check draws its config from it. */
  readonly rng: Rng
}

export function inputAt(seeds: readonly Seed[], runSeed: number, index: number): FuzzInput {
  const rng = rngFor(runSeed, index)
  const seed = rng.pick(seeds)
  const plan = randomPlan(rng)
  const start = startText(seed, rng)
  return { ...applyMutations(start, plan), seedName: seed.name, plan, rng }
}
