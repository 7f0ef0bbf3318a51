import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { StrategyContext } from '../compaction/context.ts'
import type { StrategyRegistry } from '../compaction/pipeline.ts'
import { prepare } from '../compaction/prepared.ts'
import { project } from '../compaction/project.ts'
import { computeProtections, DEFAULT_PROTECTIONS } from '../compaction/protect.ts'
import { compact } from '../compaction/run.ts'
import type { Decision, EngineConfig, ProtectionConfig } from '../compaction/types.ts'
import { WorkingView } from '../compaction/view.ts'
import type { Conversation, Message, Part, ToolCallPart, ToolResultPart } from '../model.ts'
import { estimateCounter } from '../tokens/index.ts'
import { toolPayloadTrimStrategy as strategy } from './tool-payload-trim.ts'
import { FIX_GROWTH, FIX_META } from './tool-payload-trim/params.ts'
import { phpJsonString } from './tool-payload-trim/php-json.ts'

// ---- builders -------------------------------------------------------------------------------

let seq = 0
const msg = (role: Message['role'], parts: Part[]): Message => ({ id: `m${++seq}`, role, parts })
const call = (id: string, name: string, args: Record<string, unknown>): ToolCallPart => ({
  kind: 'tool_call',
  callId: id,
  name,
  argsRaw: JSON.stringify(args),
  args,
})
const result = (id: string | null, text: string): ToolResultPart => ({
  kind: 'tool_result',
  callId: id,
  content: [{ kind: 'text', text }],
  isError: false,
})
const user = (text: string) => msg('user', [{ kind: 'text', text }])
const assistant = (...parts: Part[]) => msg('assistant', parts)
const tool = (...parts: Part[]) => msg('tool', parts)
const conv = (messages: Message[]): Conversation => ({
  meta: { format: 'openai-chat' },
  system: [],
  tools: [],
  messages,
  markers: [],
})

async function run(
  conversation: Conversation,
  params: Record<string, unknown> = {},
  protections: Partial<ProtectionConfig> = {},
  before?: (view: WorkingView) => void,
  limit?: number,
) {
  const view = new WorkingView(prepare(conversation, estimateCounter), limit)
  before?.(view)
  const prot = computeProtections(view, { ...DEFAULT_PROTECTIONS, ...protections })
  const window = { contextTokens: 200_000, reservedOutput: 0, buffer: 0, usable: 200_000 }
  const ctx = new StrategyContext(view, prot, strategy.id, 0, window, undefined)
  await strategy.run(ctx, strategy.schema.parse(params))
  const at = (message: number, part = 0) => view.part({ message, part })
  const about = (message: number, part = 0): Decision[] =>
    ctx.decisions.filter(
      (d) => 'target' in d && d.target?.message === message && d.target.part === part,
    )
  const changes = ctx.decisions.filter((d) => d.kind === 'trim' || d.kind === 'stub')
  return { ctx, view, at, about, changes }
}

/** PHP json_encode of a string, written independently of the code under test. */
const refPhpString = (s: string) =>
  JSON.stringify(s)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
const nodeSha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

const fileText = (tag: string, n: number) =>
  [
    '<?php',
    `// src/A.php — naïve ${tag} 😀`,
    ...Array.from({ length: n }, (_, i) => `echo "${tag} ${i}";`),
  ].join('\n')

const READ = { path: 'A.php', position: 0, length: 6000 }
const READ_CONFIG = {
  inputTrimBytes: 100,
  outputTrimBytes: 100,
  toolIdentifierFields: { read_file_content: ['path', 'position', 'length'] },
}
const FILE_V1 = fileText('read', 120)
const FILE_V1_BYTES = 1969
const FILE_V1_SHA = '4281597a054c4f9292045f8b2bb6058967d800631e9742a296a24c2ad70ad935'

describe('tool-payload-trim: README examples', () => {
  it('the documented hash inputs are right (bytes = strlen, sha256 of PHP json_encode)', () => {
    expect(Buffer.byteLength(FILE_V1, 'utf8')).toBe(FILE_V1_BYTES)
    expect(FILE_V1.length).toBe(1964) // UTF-16 units differ from bytes: bytes are PHP's strlen
    expect(phpJsonString(FILE_V1)).toBe(refPhpString(FILE_V1))
    expect(refPhpString(FILE_V1)).toContain(
      '\\/\\/ src\\/A.php \\u2014 na\\u00efve read \\ud83d\\ude00',
    )
    expect(nodeSha(refPhpString(FILE_V1))).toBe(FILE_V1_SHA)
  })

  it('Example A — read_file_content with identifiers: call_1 result compacted, call_2 intact', async () => {
    const c = conv([
      user('read A.php twice'),
      assistant(call('call_1', 'read_file_content', READ)),
      tool(result('call_1', FILE_V1)),
      assistant(call('call_2', 'read_file_content', READ)),
      tool(result('call_2', fileText('again', 120))),
    ])
    const { at, about, changes } = await run(c, READ_CONFIG)
    // the role='tool' message content becomes the documented placeholder
    expect(at(2)).toEqual({
      kind: 'tool_result',
      callId: 'call_1',
      isError: false,
      content: [
        {
          kind: 'text',
          text: '[tool_compaction] Tool result compacted for tool=read_file_content, callId=call_1. Large fields omitted.',
        },
      ],
      // result.content is "[omitted]" and the _tool_compaction meta is added to the result array
      meta: {
        toolCompaction: {
          content: '[omitted]',
          _tool_compaction: {
            thresholdBytes: 100,
            omittedFields: { content: { bytes: FILE_V1_BYTES, sha256: FILE_V1_SHA } },
          },
        },
      },
    })
    expect(changes).toHaveLength(1)
    expect(changes[0]).toMatchObject({
      kind: 'trim',
      reason: 'payload_trimmed',
      fields: ['content'],
    })
    expect(changes[0]?.newer).toEqual({ message: 4, part: 0 })
    // call_1's arguments are all identifier fields: nothing to trim
    expect(about(1)[0]).toMatchObject({ kind: 'skip', reason: 'below_threshold' })
    expect(about(1)[0]?.detail).toContain(
      'group key read_file_content|{"path":"A.php","position":0,"length":6000}',
    )
    // call_2 (latest group member) remains fully intact, input and output
    expect(at(3)).toBe(c.messages[3]?.parts[0])
    expect(at(4)).toBe(c.messages[4]?.parts[0])
    expect(about(4)[0]).toMatchObject({ kind: 'skip', reason: 'keep_recent' })
    expect(about(3)[0]).toMatchObject({ kind: 'skip', reason: 'keep_recent' })
    expect(about(3)[0]?.detail).toContain('its result is the latest')
  })

  it('Example A with a JSON result array: result.content → "[omitted]" + _tool_compaction meta', async () => {
    const c = conv([
      assistant(call('call_1', 'read_file_content', READ)),
      tool(result('call_1', JSON.stringify({ content: FILE_V1 }))),
      assistant(call('call_2', 'read_file_content', READ)),
      tool(result('call_2', JSON.stringify({ content: 'short now' }))),
    ])
    const { at } = await run(c, READ_CONFIG)
    const part = at(1) as ToolResultPart
    expect(part.content).toEqual([
      {
        kind: 'text',
        text: `{"content":"[omitted]","_tool_compaction":{"thresholdBytes":100,"omittedFields":{"content":{"bytes":1969,"sha256":"${FILE_V1_SHA}"}}}}`,
      },
    ])
    expect(at(3)).toBe(c.messages[3]?.parts[0])
  })

  it('Example B — same path, different position/length: different groups, nothing compacted', async () => {
    const c = conv([
      assistant(call('call_A', 'read_file_content', { path: 'A.php', position: 0, length: 6000 })),
      tool(result('call_A', FILE_V1)),
      assistant(
        call('call_B', 'read_file_content', { path: 'A.php', position: 6000, length: 4000 }),
      ),
      tool(result('call_B', fileText('tail', 80))),
    ])
    const { ctx, changes } = await run(c, READ_CONFIG)
    expect(changes).toEqual([])
    expect(ctx.decisions.map((d) => d.reason)).toEqual([
      'keep_recent',
      'keep_recent',
      'keep_recent',
      'keep_recent',
    ])
    expect(ctx.decisions[2]?.detail).toContain('{"path":"A.php","position":0,"length":6000}')
    expect(ctx.decisions[0]?.detail).toContain('{"path":"A.php","position":6000,"length":4000}')
  })

  it('Example C — write_file_content: path kept, content → "[omitted]" + meta, small result unchanged', async () => {
    const v1 = fileText('write', 80)
    const sha = '13bf690790e2821a8a73003e63011a3fdfa9d56d85b67bb64088391f09bbfbe2'
    expect(nodeSha(refPhpString(v1))).toBe(sha)
    expect(Buffer.byteLength(v1)).toBe(1390)
    const c = conv([
      assistant(call('call_1', 'write_file_content', { path: 'A.php', content: v1 })),
      tool(result('call_1', '{"status":"ok"}')),
      assistant(
        call('call_2', 'write_file_content', { path: 'A.php', content: fileText('v2', 90) }),
      ),
      tool(result('call_2', '{"status":"ok"}')),
    ])
    const { at, about, changes } = await run(c, {
      inputTrimBytes: 100,
      outputTrimBytes: 100,
      toolIdentifierFields: { write_file_content: ['path'] },
    })
    const args = `{"path":"A.php","content":"[omitted]","_tool_compaction":{"thresholdBytes":100,"omittedFields":{"content":{"bytes":1390,"sha256":"${sha}"}}}}`
    expect(at(0)).toEqual({ ...c.messages[0]?.parts[0], argsRaw: args, args: JSON.parse(args) })
    expect(changes).toHaveLength(1)
    expect(changes[0]).toMatchObject({
      kind: 'trim',
      reason: 'payload_trimmed',
      fields: ['content'],
    })
    expect(changes[0]?.detail).toContain(
      'argument field content (1390 bytes, sha256 13bf690790e2…)',
    )
    // result is small enough → unchanged
    expect(at(1)).toBe(c.messages[1]?.parts[0])
    expect(about(1)[0]).toMatchObject({ kind: 'skip', reason: 'below_threshold' })
    expect(about(1)[0]?.detail).toContain('largest trimmable: status, 2 bytes')
    // call_2 remains full
    expect(at(2)).toBe(c.messages[2]?.parts[0])
    expect(at(3)).toBe(c.messages[3]?.parts[0])
  })

  it('Example D — no toolIdentifierFields: list_files calls share "__tool_only__"', async () => {
    const listing = Array.from({ length: 40 }, (_, i) => `src/file${i}.ts`).join('\n')
    const c = conv([
      assistant(call('call_1', 'list_files', { path: 'src' })),
      tool(result('call_1', listing)),
      assistant(call('call_2', 'list_files', { path: 'tests' })),
      tool(result('call_2', listing.replace(/src/g, 'tests'))),
    ])
    const { at, about } = await run(c)
    const text = (at(1) as ToolResultPart).content[0]
    expect(text).toEqual({
      kind: 'text',
      text: '[tool_compaction] Tool result compacted for tool=list_files, callId=call_1. Large fields omitted.',
    })
    expect((at(1) as ToolResultPart).meta?.['toolCompaction']).toEqual({
      content: '[omitted]',
      _tool_compaction: {
        thresholdBytes: 100,
        omittedFields: {
          content: {
            bytes: 549,
            sha256: '847631019eddefd3e53d9a776abc164e8cd6e1a44febf7139461aef932d6228e',
          },
        },
      },
    })
    expect(nodeSha(refPhpString(listing))).toBe(
      '847631019eddefd3e53d9a776abc164e8cd6e1a44febf7139461aef932d6228e',
    )
    expect(about(1)[0]?.detail).toContain('group key list_files|__tool_only__')
    expect(about(0)[0]).toMatchObject({ reason: 'below_threshold' })
    expect(at(3)).toBe(c.messages[3]?.parts[0])
  })
})

// ---- the algorithm's rules ------------------------------------------------------------------

const big = (tag: string, bytes = 800) => `${tag}: ${'x'.repeat(bytes)}`
const write = (id: string, path: string, content: string) =>
  call(id, 'write_file_content', { path, content })
const WRITE_IDS = { toolIdentifierFields: { write_file_content: ['path'] } }

describe('tool-payload-trim: group keys and the latest occurrence', () => {
  it('a tool configured with an empty list falls back to "__tool_only__" like an unconfigured one', async () => {
    const c = conv([
      assistant(call('c1', 'read_file_content', { path: 'A.php' })),
      tool(result('c1', big('a'))),
      assistant(call('c2', 'read_file_content', { path: 'B.php' })),
      tool(result('c2', big('b'))),
    ])
    const { about, changes } = await run(c, { toolIdentifierFields: { read_file_content: [] } })
    expect(changes.map((d) => d.kind === 'trim' && d.target)).toEqual([{ message: 1, part: 0 }])
    expect(about(1)[0]?.detail).toContain('group key read_file_content|__tool_only__')
  })

  it('identifier values missing from the arguments count as null in the key', async () => {
    const c = conv([
      assistant(call('c1', 'read_file_content', { path: 'A.php' })),
      tool(result('c1', big('a'))),
      assistant(call('c2', 'read_file_content', { path: 'A.php', position: null })),
      tool(result('c2', big('b'))),
    ])
    const { about, changes } = await run(c, READ_CONFIG)
    expect(changes).toHaveLength(1)
    expect(about(3)[0]?.detail).toContain(
      'read_file_content|{"path":"A.php","position":null,"length":null}',
    )
  })

  it('a later-arriving result protects its own call even when that call is the older one', async () => {
    const c = conv([
      assistant(write('c1', 'A.php', big('one'))),
      assistant(write('c2', 'A.php', big('two'))),
      tool(result('c2', big('done two'))),
      tool(result('c1', big('done one'))),
    ])
    const { at, about } = await run(c, WRITE_IDS)
    expect(about(3)[0]).toMatchObject({ reason: 'keep_recent' })
    expect(about(0)[0]).toMatchObject({ reason: 'keep_recent' })
    expect(about(0)[0]?.detail).toContain('its result is the latest')
    expect((at(2) as ToolResultPart).content[0]).toMatchObject({
      text: '[tool_compaction] Tool result compacted for tool=write_file_content, callId=c2. Large fields omitted.',
    })
    expect((at(1) as ToolCallPart).args).toMatchObject({ content: '[omitted]' })
  })

  it('a pending latest call claims its key: the older answered pair is compacted', async () => {
    const c = conv([
      assistant(write('c1', 'A.php', big('one'))),
      tool(result('c1', big('done'))),
      assistant(write('c2', 'A.php', big('two'))),
    ])
    const { about, changes } = await run(c, WRITE_IDS)
    expect(about(2)[0]).toMatchObject({ reason: 'keep_recent' })
    expect(about(2)[0]?.detail).toContain('the latest call for group key')
    expect(changes.map((d) => d.kind === 'trim' && d.target.message)).toEqual([1, 0])
  })

  it('hard case 2: an older pending call is refused by the pending-call protection', async () => {
    const c = conv([
      assistant(write('c1', 'A.php', big('one'))),
      assistant(write('c2', 'A.php', big('two'))),
      tool(result('c2', 'ok')),
    ])
    const { about, changes } = await run(c, WRITE_IDS)
    expect(changes).toEqual([])
    expect(about(0)[0]).toMatchObject({ kind: 'protected', protection: 'pending_call' })
  })

  it('hard case 1: parallel calls with results in separate messages — per key, the group stays whole', async () => {
    const c = conv([
      user('list both'),
      assistant(call('a', 'list_files', { path: 'src' }), call('b', 'list_files', { path: 'lib' })),
      tool(result('a', big('src listing'))),
      tool(result('b', big('lib listing'))),
    ])
    const { view, at, about } = await run(c)
    expect(about(3)[0]).toMatchObject({ reason: 'keep_recent' })
    expect((at(2) as ToolResultPart).content[0]).toMatchObject({
      text: '[tool_compaction] Tool result compacted for tool=list_files, callId=a. Large fields omitted.',
    })
    expect(about(1, 1)[0]).toMatchObject({ reason: 'keep_recent' })
    expect(about(1, 0)[0]).toMatchObject({ reason: 'below_threshold' })
    expect(view.isExcluded(view.prepared.grouping.groupOfMessage[1] as number)).toBe(false)
  })

  it('results sharing one message (Anthropic style): the last part is the latest', async () => {
    const c = conv([
      assistant(call('a', 'list_files', { path: 'src' }), call('b', 'list_files', { path: 'lib' })),
      msg('user', [result('a', big('src')), result('b', big('lib'))]),
    ])
    const { about } = await run(c)
    expect(about(1, 1)[0]).toMatchObject({ reason: 'keep_recent' })
    expect(about(1, 0)[0]).toMatchObject({ kind: 'trim', reason: 'payload_trimmed' })
  })

  it('hard case 5: reused call ids are keyed by their own call (PHP’s id map would conflate them)', async () => {
    const c = conv([
      assistant(call('toolu_1', 'read_file_content', { path: 'A.php' })),
      tool(result('toolu_1', big('A'))),
      assistant(call('toolu_1', 'read_file_content', { path: 'B.php' })),
      tool(result('toolu_1', big('B'))),
    ])
    const { changes } = await run(c, { toolIdentifierFields: { read_file_content: ['path'] } })
    expect(changes).toEqual([])
  })

  it('hard case 10: ranged reads of one file are different keys when position/length identify', async () => {
    const c = conv([
      assistant(call('r1', 'read_file_content', { path: 'a.py', position: 0, length: 100 })),
      tool(result('r1', big('first'))),
      assistant(call('r2', 'read_file_content', { path: 'a.py', position: 100, length: 100 })),
      tool(result('r2', big('second'))),
    ])
    expect((await run(c, READ_CONFIG)).changes).toEqual([])
    // without the configuration (the README's "log bug") they collapse into one group
    expect((await run(c)).changes).toHaveLength(1)
  })
})

describe('tool-payload-trim: what is trimmed', () => {
  it('identifier fields are never trimmed, even far over the threshold', async () => {
    const longPath = `src/${'deep/'.repeat(100)}A.php`
    const c = conv([
      assistant(write('c1', longPath, big('one'))),
      tool(result('c1', 'ok')),
      assistant(write('c2', longPath, 'small')),
      tool(result('c2', 'ok')),
    ])
    const { at, changes } = await run(c, WRITE_IDS)
    expect((at(0) as ToolCallPart).args).toMatchObject({ path: longPath, content: '[omitted]' })
    expect(changes[0]?.detail).toContain('identifier field path (509 bytes) never trimmed')
  })

  it('threshold boundary: exactly inputTrimBytes bytes is kept, one more is trimmed (bytes = UTF-8 strlen)', async () => {
    const exact = 'é'.repeat(200) // 200 characters, 400 bytes
    const over = `${exact}!`
    const c = conv([
      assistant(call('c1', 'note', { text: exact })),
      tool(result('c1', 'ok')),
      assistant(call('c2', 'note', { text: over })),
      tool(result('c2', 'ok')),
      assistant(call('c3', 'note', { text: 'latest' })),
      tool(result('c3', 'ok')),
    ])
    const { at, about } = await run(c, { inputTrimBytes: 400 })
    expect(about(0)[0]).toMatchObject({ kind: 'skip', reason: 'below_threshold' })
    expect(about(0)[0]?.detail).toContain('largest trimmable: text, 400 bytes')
    const sha = nodeSha(refPhpString(over))
    expect(sha).toBe(nodeSha(`"${'\\u00e9'.repeat(200)}!"`))
    expect((at(2) as ToolCallPart).argsRaw).toBe(
      `{"text":"[omitted]","_tool_compaction":{"thresholdBytes":400,"omittedFields":{"text":{"bytes":401,"sha256":"${sha}"}}}}`,
    )
  })

  it('array fields are sized and hashed as PHP json_encode: "\\/" escapes, {} → [], key order', async () => {
    const tree = { z: ['a/b', 'é'], a: {}, n: [1.5, 2, 1e25] }
    const php = '{"z":["a\\/b","\\u00e9"],"a":[],"n":[1.5,2,1.0e+25]}'
    const c = conv([
      assistant(call('c1', 'scan', { tree, note: 'x' })),
      tool(result('c1', 'ok')),
      assistant(call('c2', 'scan', { tree: {}, note: 'y' })),
      tool(result('c2', 'ok')),
    ])
    const { at } = await run(c, { inputTrimBytes: 10, faithful: true })
    expect((at(0) as ToolCallPart).args).toEqual({
      tree: '[omitted]',
      note: 'x',
      _tool_compaction: {
        thresholdBytes: 10,
        omittedFields: { tree: { bytes: php.length, sha256: nodeSha(php) } },
      },
    })
  })

  it('a JSON-object result: every top-level field is eligible, small ones stay', async () => {
    const c = conv([
      assistant(call('c1', 'run_tests', { suite: 'all' })),
      tool(result('c1', JSON.stringify({ exitCode: 1, stdout: big('out'), stderr: 'boom' }))),
      assistant(call('c2', 'run_tests', { suite: 'all' })),
      tool(result('c2', '{"exitCode":0}')),
    ])
    const { at, changes } = await run(c)
    const text = ((at(1) as ToolResultPart).content[0] as { text: string }).text
    const stdout = big('out')
    expect(text).toBe(
      `{"exitCode":1,"stdout":"[omitted]","stderr":"boom","_tool_compaction":{"thresholdBytes":100,"omittedFields":{"stdout":{"bytes":${stdout.length},"sha256":"${nodeSha(refPhpString(stdout))}"}}}}`,
    )
    expect(changes[0]).toMatchObject({ fields: ['stdout'] })
  })

  it('a "__proto__" field is trimmed like any other (no prototype assignment)', async () => {
    const raw = `{"__proto__":"${'p'.repeat(500)}","k":1}`
    const c = conv([
      assistant({ ...call('c1', 'odd', {}), argsRaw: raw, args: JSON.parse(raw) }),
      tool(result('c1', 'ok')),
      assistant(call('c2', 'odd', {})),
      tool(result('c2', 'ok')),
    ])
    const { at } = await run(c)
    const args = (at(0) as ToolCallPart).argsRaw
    expect(args).toMatch(
      /^\{"__proto__":"\[omitted\]","k":1,"_tool_compaction":\{"thresholdBytes":100,"omittedFields":\{"__proto__":\{"bytes":500,/,
    )
  })

  it('excludedTools are never touched, input or output; other tools still are', async () => {
    const c = conv([
      assistant(write('c1', 'A.php', big('one'))),
      tool(result('c1', big('r1'))),
      assistant(write('c2', 'A.php', big('two'))),
      tool(result('c2', big('r2'))),
      assistant(call('l1', 'list_files', {})),
      tool(result('l1', big('l1'))),
      assistant(call('l2', 'list_files', {})),
      tool(result('l2', big('l2'))),
    ])
    const { ctx, changes } = await run(c, { ...WRITE_IDS, excludedTools: ['write_file_content'] })
    const denied = ctx.decisions.filter((d) => d.reason === 'denied_by_policy')
    expect(denied).toHaveLength(4)
    expect(denied[0]?.detail).toContain('write_file_content is in excludedTools')
    expect(changes.map((d) => d.kind === 'trim' && d.target.message)).toEqual([5])
  })

  it('hard case 4: an orphan result (no call) is left alone and recorded', async () => {
    const c = conv([tool(result('ghost', big('orphan'))), tool(result('ghost2', big('orphan')))])
    const { ctx, changes } = await run(c)
    expect(changes).toEqual([])
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['denied_by_policy', 'denied_by_policy'])
    expect(ctx.decisions[0]?.detail).toMatch(/^Orphan result ghost2 left untouched: it has no call/)
  })

  it('hard case 28: an older result carrying an image is left untouched', async () => {
    const withImage: ToolResultPart = {
      ...result('c1', big('caption')),
      content: [
        { kind: 'text', text: big('caption') },
        { kind: 'image', bytes: 5000 },
      ],
    }
    const c = conv([
      assistant(call('c1', 'screenshot', {})),
      tool(withImage),
      assistant(call('c2', 'screenshot', {})),
      tool(result('c2', 'ok')),
    ])
    const { about, changes } = await run(c)
    expect(changes).toEqual([])
    expect(about(1)[0]).toMatchObject({ reason: 'denied_by_policy' })
  })

  it('hard case 16: a trim that would not save tokens is not applied (faithful: applied anyway)', async () => {
    const field = 'y'.repeat(101)
    const c = conv([
      assistant(call('c1', 'note', { text: field })),
      tool(result('c1', 'ok')),
      assistant(call('c2', 'note', { text: 'latest' })),
      tool(result('c2', 'ok')),
    ])
    const fixed = await run(c)
    expect(fixed.changes).toEqual([])
    expect(fixed.about(0)[0]).toMatchObject({ kind: 'skip', reason: 'no_savings' })
    expect(fixed.about(0)[0]?.detail).toContain(FIX_GROWTH)
    const faithful = await run(c, { faithful: true })
    expect(faithful.changes).toHaveLength(1)
    const d = faithful.changes[0] as Decision
    expect(d.tokensAfter).toBeGreaterThan(d.tokensBefore)
  })

  it('protections are respected: an older occurrence inside a protected recent turn is refused', async () => {
    const c = conv([
      user('go'),
      assistant(write('c1', 'A.php', big('one'))),
      tool(result('c1', 'ok')),
      assistant(write('c2', 'A.php', big('two'))),
      tool(result('c2', 'ok')),
    ])
    const { about, changes } = await run(c, WRITE_IDS, { recentTurns: 1 })
    expect(changes).toEqual([])
    expect(about(1)[0]).toMatchObject({ kind: 'protected', protection: 'recent_turn' })
  })
})

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
    expect(second.about(1)[0]?.detail).toContain(FIX_META)
    expect(second.about(4)[0]).toMatchObject({ reason: 'already_compacted' })
    expect(second.about(10)[0]).toMatchObject({ reason: 'already_compacted' })
    expect(second.about(10)[0]?.detail).toContain('result files already "[omitted]"')
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
