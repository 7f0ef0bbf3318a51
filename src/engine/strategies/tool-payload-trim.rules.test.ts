import { describe, expect, it } from 'vitest'
import type { Decision } from '../compaction/types.ts'
import type { ToolCallPart, ToolResultPart } from '../model.ts'
import { FIX_GROWTH } from './tool-payload-trim/params.ts'
import {
  assistant,
  big,
  call,
  conv,
  msg,
  nodeSha,
  READ_CONFIG,
  refPhpString,
  result,
  run,
  tool,
  user,
  write,
  WRITE_IDS,
} from './tool-payload-trim/testing.mts'
import { detailOf } from '../compaction/sentence.ts'

// ---- the algorithm's rules ------------------------------------------------------------------

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
    expect(detailOf(about(1)[0])).toContain('group key read_file_content|__tool_only__')
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
    expect(detailOf(about(3)[0])).toContain(
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
    expect(detailOf(about(0)[0])).toContain('its result is the latest')
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
    expect(detailOf(about(2)[0])).toContain('the latest call for group key')
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
    expect(detailOf(changes[0])).toContain('identifier field path (509 bytes) never trimmed')
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
    expect(detailOf(about(0)[0])).toContain('largest trimmable: text, 400 bytes')
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
    expect(detailOf(denied[0])).toContain('write_file_content is in excludedTools')
    expect(changes.map((d) => d.kind === 'trim' && d.target.message)).toEqual([5])
  })

  it('hard case 4: an orphan result (no call) is left alone and recorded', async () => {
    const c = conv([tool(result('ghost', big('orphan'))), tool(result('ghost2', big('orphan')))])
    const { ctx, changes } = await run(c)
    expect(changes).toEqual([])
    expect(ctx.decisions.map((d) => d.reason)).toEqual(['denied_by_policy', 'denied_by_policy'])
    expect(detailOf(ctx.decisions[0])).toMatch(
      /^Orphan result ghost2 left untouched: it has no call/,
    )
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
    expect(detailOf(fixed.about(0)[0])).toContain(FIX_GROWTH)
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
