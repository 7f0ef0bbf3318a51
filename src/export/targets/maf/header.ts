/**
 * The parts of the Python file around the strategy: imports, the tokenizer and the provider.
 */
import type { CompactionConfig } from '../../../config/schema.ts'
import { pyStr } from './python.ts'

/** Classes MAF's package root re-exports (as its own docstring examples import them). */
const ROOT = new Set(['CompactionProvider', 'ContextWindowCompactionStrategy', 'Message'])

function importLines(names: readonly string[]): string[] {
  const root = ['CompactionProvider', ...names.filter((n) => ROOT.has(n))].sort()
  const inner = names.filter((n) => !ROOT.has(n)).sort()
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

/** The whole snippet: header comment, imports, tokenizer, the strategy body, the provider. */
export function tokenizerBlock(
  config: CompactionConfig,
  names: readonly string[],
  body: string,
): string {
  const tok = tokenizer(config)
  const needsClient = body.includes('summary_client')
  return [
    `# Compaction Lab config "${config.name.replace(/[\r\n]/g, ' ')}" for Microsoft Agent Framework (Python).`,
    '# Generated: compare the lossy-export warnings shown with it before relying on it.',
    [...tok.imports, ...importLines(names)].join('\n'),
    '',
    '',
    tok.code,
    '',
    ...(needsClient ? ['summary_client = ...  # the chat client that writes summaries', ''] : []),
    body,
    '',
    '',
    '# Add to the agent: Agent(client=..., context_providers=[history, compaction])',
    'compaction = CompactionProvider(before_strategy=strategy, tokenizer=tokenizer)',
    '',
  ].join('\n')
}
