/**
 * The fuzz worker process (`npm run fuzz` forks it): runs inputs [from, to) of a run and reports
 * each outcome to the parent over IPC, so the parent can kill it when one input hangs.
 */
import { loadCounter } from '../../src/engine/tokens/index.ts'
import { estimateCounter } from '../../src/engine/tokens/index.ts'
import { checkInput } from './check.ts'
import { inputAt } from './input.ts'
import { corpusSeeds } from './seeds.ts'

interface Job {
  readonly runSeed: number
  readonly from: number
  readonly to: number
  readonly corpus: string
  /** Every n-th input is counted with the exact o200k tokenizer instead of the estimate. */
  readonly exactEvery: number
}

const send = (message: unknown) =>
  new Promise<void>((resolve) => {
    if (process.send) process.send(message, () => resolve())
    else resolve()
  })

process.once('message', (job: Job) => {
  void run(job)
})

async function run(job: Job): Promise<void> {
  const seeds = corpusSeeds(job.corpus)
  const exact = await loadCounter('o200k_base')
  for (let i = job.from; i < job.to; i++) {
    await send({ type: 'start', index: i })
    const input = inputAt(seeds, job.runSeed, i)
    const counter = job.exactEvery > 0 && i % job.exactEvery === 0 ? exact : estimateCounter
    const outcome = await checkInput(input.bytes, input.text, input.rng, i, counter)
    await send({ type: 'outcome', index: i, outcome, seedName: input.seedName })
  }
  await send({ type: 'done' })
  process.exit(0)
}
