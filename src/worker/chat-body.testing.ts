/**
 * A small OpenAI Chat transcript both worker-script tests load: two reads of the same file, the
 * first one stale, so a run has something to decide.
 */
const read = (id: string) => ({
  id,
  type: 'function',
  function: { name: 'read_file', arguments: JSON.stringify({ path: 'src/a.ts' }) },
})

export const CHAT_BODY = JSON.stringify({
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'Fix src/a.ts' },
    { role: 'assistant', content: null, tool_calls: [read('c1')] },
    { role: 'tool', tool_call_id: 'c1', content: 'export const x = 1\n'.repeat(50) },
    { role: 'assistant', content: null, tool_calls: [read('c2')] },
    { role: 'tool', tool_call_id: 'c2', content: 'export const x = 2\n'.repeat(50) },
    { role: 'assistant', content: 'Done.' },
  ],
})
