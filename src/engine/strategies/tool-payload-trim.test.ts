import { describe, expect, it } from 'vitest'
import type { StrategyRegistry } from '../compaction/pipeline.ts'
import { project } from '../compaction/project.ts'
import { DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { compact } from '../compaction/run.ts'
import type { EngineConfig } from '../compaction/types.ts'
import type { ToolCallPart } from '../model.ts'
import { estimateCounter } from '../tokens/index.ts'
import { toolPayloadTrimStrategy as strategy } from './tool-payload-trim.ts'
import { FIX_META } from './tool-payload-trim/params.ts'
import {
  assistant,
  big,
  call,
  conv,
  FILE_V1,
  fileText,
  nodeSha,
  READ,
  READ_CONFIG,
  result,
  run,
  tool,
  user,
  write,
  WRITE_IDS,
} from './tool-payload-trim/testing.mts'
import { detailOf } from '../compaction/sentence.ts'

describe('tool-payload-trim: runs, replay and idempotence', () => {
  const example = () =>
    conv([
      user('edit'),
      assistant(write('call_1', 'A.php', fileText('write', 80))),
      tool(result('call_1', '{"status":"ok"}')),
      assistant(call('r1', 'read_file_content', READ)),
      tool(result('r1', FILE_V1)),
      assistant(write('call_2', 'A.php', fileText('v2', 90))),
      tool(result('call_2', '{"status":"ok"}')),
      assistant(call('r2', 'read_file_content', READ)),
      tool(result('r2', FILE_V1)),
      assistant(call('l1', 'list_files', { path: 'src' })),
      tool(result('l1', JSON.stringify({ files: big('l1'), count: 40 }))),
      assistant(call('l2', 'list_files', { path: 'src' })),
      tool(result('l2', '{"files":[],"count":0}')),
    ])
  const params = {
    toolIdentifierFields: {
      ...READ_CONFIG.toolIdentifierFields,
      ...WRITE_IDS.toolIdentifierFields,
    },
  }

  it('groups already excluded by an earlier step do not count: the newest visible one is latest', async () => {
    const c = example()
    const { changes } = await run(c, params, {}, (view) => {
      view.exclude(view.prepared.grouping.groupOfMessage[7] as number)
      view.exclude(view.prepared.grouping.groupOfMessage[5] as number)
    })
    expect(changes.map((d) => d.kind === 'trim' && d.target.message)).toEqual([10])
  })

  it('replay: only messages visible at the point are scanned', async () => {
    expect((await run(example(), params, {}, undefined, 5)).changes).toEqual([])
    expect((await run(example(), params, {}, undefined, 7)).changes).toHaveLength(1)
  })

  it('hard case 17: idempotent — a second run on the projection changes nothing (invariants hold)', async () => {
    const registry: StrategyRegistry = new Map([[strategy.id, strategy]])
    const config: EngineConfig = {
      window: { contextTokens: 200_000, reservedOutput: 0, buffer: 0 },
      protections: DEFAULT_PROTECTIONS,
      pipeline: [{ strategy: strategy.id, enabled: true, params }],
      fallback: { enabled: false, strict: false },
    }
    const out = await compact(example(), config, { counter: estimateCounter }, registry)
    expect(out.changes).toBe(3)
    expect(out.invariants.checks.filter((c) => !c.ok)).toEqual([])
    const second = await run(out.projection, params)
    expect(second.changes).toEqual([])
    expect(second.about(1)[0]).toMatchObject({ reason: 'already_compacted' })
    expect(detailOf(second.about(1)[0])).toContain(FIX_META)
    expect(second.about(4)[0]).toMatchObject({ reason: 'already_compacted' })
    expect(second.about(10)[0]).toMatchObject({ reason: 'already_compacted' })
    expect(detailOf(second.about(10)[0])).toContain('result files already "[omitted]"')
  })

  it('a later pass with a lower threshold keeps the earlier record and says what it fixed', async () => {
    const extra = 'e'.repeat(300)
    const c = conv([
      assistant(write('c1', 'A.php', fileText('write', 80))),
      tool(result('c1', 'ok')),
      assistant(write('c2', 'A.php', 'new')),
      tool(result('c2', 'ok')),
    ])
    const withExtra = conv(
      c.messages.map((m, i) =>
        i === 0
          ? {
              ...m,
              parts: [
                call('c1', 'write_file_content', {
                  path: 'A.php',
                  content: fileText('write', 80),
                  extra,
                }),
              ],
            }
          : m,
      ),
    )
    const first = await run(withExtra, { ...WRITE_IDS, inputTrimBytes: 1000 })
    expect(first.changes[0]).toMatchObject({ fields: ['content'] })
    const second = await run(project(first.view), { ...WRITE_IDS, inputTrimBytes: 100 })
    expect(second.changes).toHaveLength(1)
    expect(second.changes[0]).toMatchObject({ fields: ['extra'], fixed: FIX_META })
    expect((second.at(0) as ToolCallPart).args).toEqual({
      path: 'A.php',
      content: '[omitted]',
      extra: '[omitted]',
      _tool_compaction: {
        thresholdBytes: 100,
        omittedFields: {
          content: {
            bytes: 1390,
            sha256: '13bf690790e2821a8a73003e63011a3fdfa9d56d85b67bb64088391f09bbfbe2',
          },
          extra: { bytes: 300, sha256: nodeSha(`"${extra}"`) },
        },
      },
    })
  })

  it('faithful: a second pass trims the _tool_compaction meta itself and loses the first record', async () => {
    const first = await run(example(), { ...params, faithful: true })
    const again = await run(project(first.view), { ...params, faithful: true })
    const meta = `{"thresholdBytes":100,"omittedFields":{"content":{"bytes":1390,"sha256":"13bf690790e2821a8a73003e63011a3fdfa9d56d85b67bb64088391f09bbfbe2"}}}`
    expect((first.at(1) as ToolCallPart).argsRaw).toBe(
      `{"path":"A.php","content":"[omitted]","_tool_compaction":${meta}}`,
    )
    expect((again.at(1) as ToolCallPart).argsRaw).toBe(
      `{"path":"A.php","content":"[omitted]","_tool_compaction":{"thresholdBytes":100,"omittedFields":{"_tool_compaction":{"bytes":${meta.length},"sha256":"${nodeSha(meta)}"}}}}`,
    )
    expect(again.changes.map((d) => d.kind === 'trim' && [d.target.message, d.fields])).toEqual([
      [10, ['_tool_compaction']],
      [1, ['_tool_compaction']],
    ])
  })
})

describe('tool-payload-trim: options', () => {
  it("defaults are adachsoft's: 100 / 100 / [] / {} (plus faithful false)", () => {
    expect(strategy.schema.parse({})).toEqual({
      inputTrimBytes: 100,
      outputTrimBytes: 100,
      excludedTools: [],
      toolIdentifierFields: {},
      faithful: false,
    })
  })

  it.each([
    [{ inputTrimBytes: -1 }, 'inputTrimBytes must be 0 or more bytes'],
    [{ outputTrimBytes: 1.5 }, 'outputTrimBytes must be a whole number of bytes'],
    [{ inputTrimBytes: '100' }, 'inputTrimBytes must be a number of bytes'],
    [{ excludedTools: 'bash' }, 'excludedTools must be a list of tool names'],
    [{ toolIdentifierFields: { read: 'path' } }, 'expected array'],
    [{ inputTrimByte: 100 }, 'inputTrimByte'],
  ])('rejects %j with a clear message', (params, message) => {
    const parsed = strategy.schema.safeParse(params)
    expect(parsed.success).toBe(false)
    expect(parsed.error?.message).toContain(message)
  })
})
