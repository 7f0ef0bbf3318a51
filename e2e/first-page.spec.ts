import { writeFileSync } from 'node:fs'
import { expect, test } from './fixtures.ts'

/** An OpenAI Chat Completions request body: system, user, a tool call + result, final answer. */
const OPENAI_CHAT_BODY = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are a helpful weather assistant.' },
    { role: 'user', content: 'What is the weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '18°C and sunny' },
    { role: 'assistant', content: 'It is 18°C and sunny in Paris.' },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    },
  ],
}

/** An Anthropic Messages request body with a tool_use / tool_result round trip. */
const ANTHROPIC_BODY = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: 'You are a careful coding assistant.',
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      input_schema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  messages: [
    { role: 'user', content: 'Show me package.json' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'package.json' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"name":"demo"}' }],
    },
    { role: 'assistant', content: 'It is a package called demo.' },
  ],
}

/** Claude Code session lines; line 3 is cut off mid-object. */
function brokenClaudeCodeJsonl(): string {
  const line = (type: string, uuid: string, parent: string | null, content: string) =>
    JSON.stringify({
      type,
      uuid,
      parentUuid: parent,
      sessionId: 'e2e-session',
      timestamp: '2025-01-01T00:00:00.000Z',
      message: { role: type, content },
    })
  return [
    line('user', 'u1', null, 'List the files'),
    line('assistant', 'a1', 'u1', 'Here they are.'),
    '{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"e2e-session","message":{"role":',
    line('user', 'u3', 'a1', 'Thanks'),
    line('assistant', 'a3', 'u3', 'You are welcome.'),
  ].join('\n')
}

const IMG = '<img src=x onerror=alert(1)>'
const SCRIPT = '<script>alert(1)</script>'

test('the built-in sample loads through the worker: estimate first, then the exact count', async ({
  app,
}) => {
  await app.recordTotalTokens()
  await app.open()
  await expect(app.privacyNote).toHaveText(
    'Your transcript never leaves this browser — nothing is uploaded.',
  )
  await app.expectLoaded('claude-code')
  await expect(app.formatConfidence).toBeVisible()
  await expect(app.formatEvidence.locator('li').first()).toBeVisible()
  expect(await app.countValue('messages')).toBeGreaterThan(0)
  expect(await app.countValue('tool-calls')).toBeGreaterThan(0)
  await app.expectExactTotal()
  await expect(app.totalTokens).toHaveText(/^[\d,]+ tokens \(o200k_base, exact\)$/)

  const history = await app.totalTokenHistory()
  expect(history[0], 'the instant estimate is shown first').toMatch(
    /^≈ [\d,]+ tokens \(estimate, chars\/4\)$/,
  )
  expect(history.at(-1)).toMatch(/\(o200k_base, exact\)$/)
})

test('a pasted OpenAI chat request body is detected with the right counts', async ({ app }) => {
  await app.open()
  await app.expectLoaded('claude-code')
  await app.paste(JSON.stringify(OPENAI_CHAT_BODY, null, 2))
  await app.expectLoaded('openai-chat')
  await expect(app.count('messages')).toHaveAttribute('data-value', '5')
  await expect(app.count('tool-calls')).toHaveAttribute('data-value', '1')
  await expect(app.count('tool-results')).toHaveAttribute('data-value', '1')
  await app.expectExactTotal()
})

test('a large paste goes straight to the worker: loaded, not put in the paste box', async ({
  app,
}) => {
  await app.open()
  await app.expectLoaded('claude-code')
  // ~100k characters: over the size at which a paste skips the textarea.
  const filler = 'x'.repeat(400)
  const messages = [{ role: 'user', content: 'Start' }]
  for (let i = 0; i < 250; i++) messages.push({ role: 'assistant', content: `${i} ${filler}` })
  const body = JSON.stringify({ model: 'gpt-4o', messages })
  await app.pasteBox.evaluate((box, text) => {
    const data = new DataTransfer()
    data.setData('text/plain', text)
    box.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    )
  }, body)
  await app.expectLoaded('openai-chat')
  await expect(app.count('messages')).toHaveAttribute('data-value', '251')
  await expect(app.pasteBox).toHaveValue('')
  await expect(app.pasteBox).toHaveAttribute('placeholder', /^Pasted [\d,]+ characters/)
})

test('Ctrl/Cmd+Enter in the paste box loads the text', async ({ app }) => {
  await app.open()
  await app.expectLoaded('claude-code')
  await app.pasteWithShortcut(JSON.stringify(OPENAI_CHAT_BODY))
  await app.expectLoaded('openai-chat')
})

test('several picked files: the first is loaded, the others open one at a time', async ({
  app,
}, testInfo) => {
  const request = testInfo.outputPath('anthropic-request.json')
  const extra = testInfo.outputPath('other-notes.json')
  writeFileSync(request, JSON.stringify(ANTHROPIC_BODY, null, 2))
  writeFileSync(extra, '{}')
  await app.open()
  await app.expectLoaded('claude-code')

  await app.pickFiles([request, extra])
  await app.expectLoaded('anthropic-messages')
  await expect(app.sourceLine).toContainText('anthropic-request.json')
  await expect(app.otherFiles).toContainText('other-notes.json')
  await expect(app.count('messages')).toHaveAttribute('data-value', '4')
  await app.expectExactTotal()

  // Switch to the other file and back: each is analysed on its own.
  const choice = (name: string) => app.otherFiles.locator(`[data-file="${name}"]`)
  await expect(choice('anthropic-request.json')).toHaveAttribute('aria-pressed', 'true')
  // `{}` is no transcript: its error shows beside the analysis, which stays (issue 15).
  await choice('other-notes.json').click()
  await expect(app.loadError).toHaveAttribute('data-kept', 'true')
  await expect(app.loadError).toContainText('anthropic-request.json')
  await expect(choice('anthropic-request.json')).toHaveAttribute('aria-pressed', 'true')
  await expect(app.count('messages')).toHaveAttribute('data-value', '4')
  await choice('anthropic-request.json').click()
  await app.expectLoaded('anthropic-messages')
  await expect(app.count('messages')).toHaveAttribute('data-value', '4')

  // The file's bytes went to the worker; overriding the format reads the picked file again.
  await app.formatOverride.selectOption('openai-chat')
  await expect(app.formatOverride).toHaveValue('openai-chat')
  await expect(app.sourceLine).toContainText('anthropic-request.json')
  await expect(app.app).toHaveAttribute('data-status', /loaded|error/)
  await app.formatOverride.selectOption('')
  await app.expectLoaded('anthropic-messages')
  await expect(app.count('messages')).toHaveAttribute('data-value', '4')
})

test('a file dropped anywhere on the page is loaded', async ({ app }) => {
  await app.open()
  await app.expectLoaded('claude-code')
  await app.dropFile('dropped-request.json', JSON.stringify(ANTHROPIC_BODY))
  await app.expectLoaded('anthropic-messages')
  await expect(app.sourceLine).toContainText('dropped-request.json')
})

test('the theme choice is applied and remembered', async ({ app, page }) => {
  await app.open()
  await expect(app.themeToggle).toHaveAttribute('data-theme-pref', 'system')
  await app.themeToggle.click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await app.themeToggle.click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect(app.themeToggle).toHaveAttribute('data-theme-pref', 'dark')
})

test('broken JSONL reports the line and keeps the pasted text', async ({ app }) => {
  const text = brokenClaudeCodeJsonl()
  await app.open()
  await app.expectLoaded('claude-code')
  await app.paste(text)

  const problems = app.warnings.or(app.loadError)
  await expect(problems.first()).toBeVisible()
  await expect(problems.first()).toContainText(/line 3\b/)
  await expect(app.pasteBox).toHaveValue(text)
})

test('garbage input is an error with a position, and the text stays', async ({ app }) => {
  const text = '{"messages": [ {"role": "user", "content": "hi"} '
  await app.open()
  await app.expectLoaded('claude-code')
  await app.paste(text)
  await expect(app.loadError).toContainText(/line \d+, offset \d+/)
  // The sample's analysis stays on screen beside the error (issue 15): nothing was replaced.
  await expect(app.loadError).toHaveAttribute('data-kept', 'true')
  await app.expectLoaded('claude-code')
  await expect(app.pasteBox).toHaveValue(text)
})

test('transcript HTML is shown as text and never runs', async ({ app, page, guards }) => {
  const body = {
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: `Please render ${IMG} for me` },
      { role: 'assistant', content: `Sure: ${SCRIPT}` },
    ],
  }
  await app.open()
  await app.expectLoaded('claude-code')
  await app.paste(JSON.stringify(body))
  await app.expectLoaded('openai-chat')

  await expect(app.preview).toContainText(IMG)
  await expect(app.preview).toContainText(SCRIPT)
  await expect(page.locator('img[src="x"]')).toHaveCount(0)
  await expect(page.locator('script:not([src])')).toHaveCount(0)
  // Give a would-be onerror handler time to fire before the guards check for dialogs.
  await page.waitForTimeout(300)
  expect(guards.dialogs).toEqual([])
})

test('no request leaves the origin during a whole session', async ({ app, page, guards }) => {
  await app.open()
  await app.expectLoaded('claude-code')
  await app.expectExactTotal()
  await app.paste(JSON.stringify(OPENAI_CHAT_BODY))
  await app.expectLoaded('openai-chat')
  // Switching tokenizer (in the overview) loads the other rank table: from our origin too.
  await app.showView('overview')
  await app.tokenizerSelect.selectOption('cl100k_base')
  await app.expectExactTotal('cl100k_base')
  await app.formatOverride.selectOption('anthropic-messages')
  await expect(app.app).toHaveAttribute('data-status', /loaded|error/)

  const origin = new URL(page.url()).origin
  expect(guards.requests.length).toBeGreaterThan(3)
  for (const url of guards.requests) {
    expect(url.startsWith(origin) || /^(data|blob):/.test(url), url).toBe(true)
  }
})
