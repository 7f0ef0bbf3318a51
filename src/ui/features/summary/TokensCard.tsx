import type { ChangeEvent } from 'react'
import { useProgress, useReport, useTranscriptActions } from '../../../store/index.ts'
import type { TokenizerId } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount, formatSigned } from '../../lib/format.ts'
import { TID } from '../../testids.ts'
import { ApproximateList } from './ApproximateList.tsx'
import { CategoryTable } from './CategoryTable.tsx'
import { ReportedUsage } from './ReportedUsage.tsx'
import { describeTotal } from './tokenLabels.ts'

const TOKENIZERS: readonly { id: TokenizerId; label: string }[] = [
  { id: 'o200k_base', label: 'o200k_base (GPT-4o and later)' },
  { id: 'cl100k_base', label: 'cl100k_base (GPT-4, GPT-3.5)' },
  { id: 'estimate', label: 'estimate (chars/4)' },
]

function TokenizerSelect({ value }: { readonly value: TokenizerId }) {
  const { recount } = useTranscriptActions()
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = TOKENIZERS.find((t) => t.id === event.target.value)
    if (next) void recount(next.id)
  }
  return (
    <label className="inline-field">
      <span className="field-label">Tokenizer</span>
      <select
        className="select"
        value={value}
        onChange={onChange}
        data-testid={TID.tokenizerSelect}
      >
        {TOKENIZERS.map((t) => (
          <option key={t.id} value={t.id}>
            {t.label}
          </option>
        ))}
      </select>
    </label>
  )
}

/** Total tokens (estimate first, exact when counted), where they go, and what the source reported. */
export function TokensCard() {
  const { report, exactReport } = useReport()
  const progress = useProgress()
  if (!report) return null
  const shown = exactReport ?? report
  const tokens = shown.tokens
  const counting = progress?.phase === 'tokenizer' || progress?.phase === 'count'
  const estimate = report.tokens
  return (
    <Section
      title="Tokens"
      aside={<TokenizerSelect value={exactReport?.tokens.tokenizer ?? 'o200k_base'} />}
    >
      <div className="total">
        <span
          className="total-value"
          data-testid={TID.totalTokens}
          data-tokenizer={tokens.tokenizer}
          data-exact={String(tokens.tokenizer !== 'estimate' && tokens.exact)}
          data-total={tokens.total}
        >
          {describeTotal(tokens)}
        </span>
        <span className="hint" data-testid={TID.estimateNote}>
          {counting
            ? 'counting exactly…'
            : exactReport && exactReport !== report && tokens.tokenizer !== 'estimate'
              ? `chars/4 estimate was ≈ ${formatCount(estimate.total)} (${formatSigned(estimate.total - tokens.total)})`
              : ''}
        </span>
      </div>
      <p className="calibration hint" data-testid={TID.calibration}>
        Our count of everything in the file, with {tokens.tokenizer}: the context each model call
        had (hidden prefix, upstream compactions, reasoning rules) is under Accounting.
      </p>
      <ReportedUsage report={shown} />
      <CategoryTable tokens={tokens} />
      <ApproximateList items={tokens.approximate} />
    </Section>
  )
}
