/**
 * The parts of the Python file around the strategy: imports, the tokenizer and the provider.
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import { exporterName, oneLine } from '../index-helpers.ts'
import { pyStr } from './python.ts'
import { GATE_CLASS } from './strategies.ts'

/** Classes MAF's package root re-exports (as its own docstring examples import them). */
const ROOT = new Set(['CompactionProvider', 'ContextWindowCompactionStrategy', 'Message'])

/** What the token gate needs from agent_framework._compaction (all in its `__all__`). */
const GATE_IMPORTS = ['CompactionStrategy', 'annotate_token_counts', 'included_token_count']

function importLines(names: readonly string[]): string[] {
  const gate = names.includes(GATE_CLASS)
  const wanted = names.filter((n) => n !== GATE_CLASS)
  const withMessage = gate && !wanted.includes('Message') ? [...wanted, 'Message'] : wanted
  const root = ['CompactionProvider', ...withMessage.filter((n) => ROOT.has(n))].sort()
  const inner = [...withMessage.filter((n) => !ROOT.has(n)), ...(gate ? GATE_IMPORTS : [])].sort()
  const lines = [`from agent_framework import ${root.join(', ')}`]
  // The individual strategies live in agent_framework._compaction (MAF's CompactionProvider
  // docstring imports them from there).
  if (inner.length > 0) {
    lines.push(
      `from agent_framework._compaction import (\n${inner.map((n) => `    ${n},`).join('\n')}\n)`,
    )
  }
  return lines
}

/**
 * The tokenizer our config measures with, as a MAF `TokenizerProtocol` (`count_tokens(text)`):
 * tiktoken for the real encodings, MAF's own chars/4 estimator for `estimate`.
 */
function tokenizer(config: CompactionConfig): { imports: string[]; code: string } {
  if (config.tokenizer === 'estimate') {
    return {
      imports: ['from agent_framework._compaction import CharacterEstimatorTokenizer'],
      code: 'tokenizer = CharacterEstimatorTokenizer()',
    }
  }
  const encoding = config.tokenizer
  return {
    imports: ['import tiktoken'],
    code: [
      'class TiktokenTokenizer:',
      `    """Counts tokens with tiktoken's ${encoding}, the encoding this config was tuned with."""`,
      '',
      '    def __init__(self) -> None:',
      `        self._encoding = tiktoken.get_encoding(${pyStr(encoding)})`,
      '',
      '    def count_tokens(self, text: str) -> int:',
      '        return len(self._encoding.encode(text))',
      '',
      '',
      'tokenizer = TiktokenTokenizer()',
    ].join('\n'),
  }
}

/**
 * A strategy that runs another only while the included messages count more than `tokens`
 * tokens: how a step with a token trigger is spelt, since MAF strategies have no trigger and a
 * strategy is any async callable (the CompactionStrategy protocol, _compaction.py:61-73).
 */
const GATE_CODE = [
  `class ${GATE_CLASS}:`,
  '    """Runs `strategy` only while the included messages count more than `tokens` tokens."""',
  '',
  '    def __init__(self, tokens: int, strategy: CompactionStrategy) -> None:',
  '        self.tokens = tokens',
  '        self.strategy = strategy',
  '',
  '    async def __call__(self, messages: list[Message]) -> bool:',
  '        annotate_token_counts(messages, tokenizer=tokenizer)',
  '        if included_token_count(messages) <= self.tokens:',
  '            return False',
  '        return await self.strategy(messages)',
].join('\n')

/** The whole snippet: header comment, imports, tokenizer, the strategy body, the provider. */
export function tokenizerBlock(
  config: CompactionConfig,
  names: readonly string[],
  body: string,
  summary: string,
): string {
  const tok = tokenizer(config)
  const needsClient = body.includes('summary_client')
  return [
    `# ${summary}`,
    `# Config ${JSON.stringify(oneLine(config.name))} for Microsoft Agent Framework (Python), exported by ${exporterName()};`,
    '# compare the lossy-export warnings shown with it before relying on it.',
    [...tok.imports, ...importLines(names)].join('\n'),
    '',
    '',
    tok.code,
    '',
    ...(names.includes(GATE_CLASS) ? ['', GATE_CODE, '', ''] : []),
    ...(needsClient ? ['summary_client = ...  # the chat client that writes summaries', ''] : []),
    body,
    '',
    '',
    '# Add to the agent: Agent(client=..., context_providers=[history, compaction])',
    'compaction = CompactionProvider(before_strategy=strategy, tokenizer=tokenizer)',
    '',
  ].join('\n')
}
