import { describe, expect, it } from 'vitest'
import type { ToolResultPart } from '../model.ts'
import { phpJsonString } from './tool-payload-trim/php-json.ts'
import {
  assistant,
  call,
  conv,
  FILE_V1,
  fileText,
  nodeSha,
  READ,
  READ_CONFIG,
  refPhpString,
  result,
  run,
  tool,
  user,
} from './tool-payload-trim/testing.mts'
import { detailOf } from '../compaction/sentence.ts'

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
    expect(detailOf(about(1)[0])).toContain(
      'group key read_file_content|{"path":"A.php","position":0,"length":6000}',
    )
    // call_2 (latest group member) remains fully intact, input and output
    expect(at(3)).toBe(c.messages[3]?.parts[0])
    expect(at(4)).toBe(c.messages[4]?.parts[0])
    expect(about(4)[0]).toMatchObject({ kind: 'skip', reason: 'keep_recent' })
    expect(about(3)[0]).toMatchObject({ kind: 'skip', reason: 'keep_recent' })
    expect(detailOf(about(3)[0])).toContain('its result is the latest')
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
    expect(detailOf(ctx.decisions[2])).toContain('{"path":"A.php","position":0,"length":6000}')
    expect(detailOf(ctx.decisions[0])).toContain('{"path":"A.php","position":6000,"length":4000}')
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
    expect(detailOf(changes[0])).toContain(
      'argument field content (1390 bytes, sha256 13bf690790e2…)',
    )
    // result is small enough → unchanged
    expect(at(1)).toBe(c.messages[1]?.parts[0])
    expect(about(1)[0]).toMatchObject({ kind: 'skip', reason: 'below_threshold' })
    expect(detailOf(about(1)[0])).toContain('largest trimmable: status, 2 bytes')
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
    expect(detailOf(about(1)[0])).toContain('group key list_files|__tool_only__')
    expect(about(0)[0]).toMatchObject({ reason: 'below_threshold' })
    expect(at(3)).toBe(c.messages[3]?.parts[0])
  })
})
