/**
 * The views' requests the worker answers beside loads and runs: a group's detail, sweeps,
 * comparisons, exports and config import. They read the worker's state through a small context
 * (the loaded conversation, the latest run, cancellations) and post their own replies.
 */
import type { Conversation } from '../engine/model.ts'
import type { TextCounter } from '../engine/tokens/types.ts'
import { compareConfigs } from './compare.ts'
import { describeConfigs } from './describe.ts'
import { groupDetail } from './detail.ts'
import {
  exportConfigFile,
  exportReportFile,
  exportTranscriptFile,
  importConfigText,
} from './exports.ts'
import type { FromWorker, ToWorkerOf } from './protocol.ts'
import type { RunRecord } from './run.ts'
import { sweepConfig } from './sweep.ts'

export interface Loaded {
  readonly conv: Conversation
  readonly priceWith: TextCounter
}

export interface SideContext {
  post(message: FromWorker): void
  /** The loaded conversation and its counter once any count is in; null after posting why not. */
  current(id: number): Promise<Loaded | null>
  isCancelled(id: number): boolean
  /** The conversation loaded now (a newer load replaces it). */
  conversation(): Conversation | null
  /** The latest finished run, the preset it ran as, and the loaded file's name. */
  lastRun(): { readonly record: RunRecord | null; readonly preset?: string; readonly file?: string }
  /** A pause that lets queued messages (a cancel, a newer request) in. */
  yieldToQueue(): Promise<void>
}

export type SideMessage = ToWorkerOf<
  | 'detail'
  | 'describe'
  | 'sweep'
  | 'compare'
  | 'exportConfig'
  | 'exportTranscript'
  | 'exportReport'
  | 'importConfig'
>

export function createSideRequests(ctx: SideContext): (msg: SideMessage) => Promise<void> {
  const { post } = ctx
  // Id of the newest sweep: a newer one (or a cancel) stops an older one between points.
  let latestSweep = 0

  async function detail(msg: ToWorkerOf<'detail'>): Promise<void> {
    const loaded = await ctx.current(msg.id)
    if (!loaded) return
    const { record } = ctx.lastRun()
    const run = record?.prepared.conversation === loaded.conv ? record : null
    const found = groupDetail(loaded.conv, loaded.priceWith, run, msg.groupId, msg.maxChars)
    if (!found) {
      post({ type: 'error', id: msg.id, message: `no group "${msg.groupId}" in this transcript` })
      return
    }
    post({ type: 'detailed', id: msg.id, detail: found })
  }

  async function sweep(msg: ToWorkerOf<'sweep'>): Promise<void> {
    const { id } = msg
    latestSweep = id
    const loaded = await ctx.current(id)
    if (!loaded) return
    const live = () =>
      id === latestSweep && !ctx.isCancelled(id) && ctx.conversation() === loaded.conv
    const outcome = await sweepConfig(
      loaded.conv,
      loaded.priceWith,
      msg.config,
      msg.path,
      msg.values,
      {
        ...(msg.withCost ? { withCost: true } : {}),
        checkpoint: async (done, total) => {
          await ctx.yieldToQueue()
          if (!live()) return false
          post({ type: 'sweepProgress', id, done, total })
          return true
        },
      },
    )
    if (!live()) return
    if (outcome.kind === 'invalid') post({ type: 'configInvalid', id, issues: outcome.issues })
    else if (outcome.kind === 'swept')
      post({ type: 'swept', id, path: msg.path, points: outcome.points })
  }

  async function compare(msg: ToWorkerOf<'compare'>): Promise<void> {
    const loaded = await ctx.current(msg.id)
    if (!loaded) return
    const outcome = await compareConfigs(loaded.conv, loaded.priceWith, msg.a, msg.b)
    if (ctx.isCancelled(msg.id) || ctx.conversation() !== loaded.conv) return
    if (outcome.kind === 'invalid')
      post({ type: 'configInvalid', id: msg.id, issues: outcome.issues })
    else post({ type: 'compared', id: msg.id, ...outcome.result })
  }

  async function exportRun(
    msg: ToWorkerOf<'exportTranscript'> | ToWorkerOf<'exportReport'>,
  ): Promise<void> {
    const loaded = await ctx.current(msg.id)
    if (!loaded) return
    const { record, preset, file } = ctx.lastRun()
    if (record?.prepared.conversation !== loaded.conv) {
      post({
        type: 'error',
        id: msg.id,
        message: 'nothing ran yet: pick a preset or edit the config first',
      })
      return
    }
    if (ctx.isCancelled(msg.id)) return
    const out =
      msg.type === 'exportTranscript'
        ? exportTranscriptFile(record, file)
        : exportReportFile(record, msg.format, { sourceFile: file, preset }, msg.columns)
    post({ type: 'exported', id: msg.id, file: out })
  }

  return async (msg) => {
    switch (msg.type) {
      case 'detail':
        return detail(msg)
      case 'describe':
        post({ type: 'described', id: msg.id, ...describeConfigs() })
        return
      case 'sweep':
        return sweep(msg)
      case 'compare':
        return compare(msg)
      case 'exportConfig': {
        const outcome = exportConfigFile(msg.config, msg.preset, msg.target)
        if (outcome.kind === 'invalid')
          post({ type: 'configInvalid', id: msg.id, issues: outcome.issues })
        else post({ type: 'exported', id: msg.id, file: outcome.file })
        return
      }
      case 'exportTranscript':
      case 'exportReport':
        return exportRun(msg)
      case 'importConfig': {
        const outcome = importConfigText(msg.text)
        if (outcome.kind === 'invalid')
          post({ type: 'configInvalid', id: msg.id, issues: outcome.issues })
        else post({ type: 'configImported', id: msg.id, config: outcome.config })
        return
      }
      default: {
        const unknownMessage: never = msg
        return unknownMessage
      }
    }
  }
}
