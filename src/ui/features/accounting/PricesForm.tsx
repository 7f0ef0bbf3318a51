import { useState, type FormEvent } from 'react'
import { currentWorkingConfig, useConfigActions, useLabStore } from '../../../store/index.ts'
import type { RunView } from '../../../store/index.ts'
import { TID } from '../../testids.ts'
import { setIn } from '../../../store/index.ts'
import { overrideValue } from './accountingModel.ts'

type Price = NonNullable<RunView['accounting']['price']>

const FIELDS = [
  ['input', 'Input'],
  ['cacheWrite5m', 'Cache write 5m'],
  ['cacheWrite1h', 'Cache write 1h'],
  ['cacheRead', 'Cache read'],
  ['output', 'Output'],
] as const

/**
 * The prices the session is costed at (USD per million tokens), from the shipped table matched to
 * the model id; each can be replaced, and the replacement is saved in the config's `pricing`.
 */
export function PricesForm({ summary }: { readonly summary: RunView }) {
  const lab = useLabStore()
  const { setConfig } = useConfigActions()
  const price = summary.accounting.price
  const config = currentWorkingConfig(lab)
  const pricing = (config as { pricing?: Record<string, unknown> } | null)?.pricing ?? {}
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      FIELDS.map(([k]) => [k, overrideValue(pricing[k]) === null ? '' : String(pricing[k])]),
    ),
  )
  const apply = (event: FormEvent) => {
    event.preventDefault()
    let next = currentWorkingConfig(lab)
    for (const [k] of FIELDS) {
      const t = (texts[k] ?? '').trim()
      next = setIn(next, ['pricing', k], t === '' ? undefined : Number(t))
    }
    const left = (next as { pricing?: Record<string, unknown> }).pricing
    if (left && Object.keys(left).length === 0) next = setIn(next, ['pricing'], undefined)
    setConfig(next, { immediate: true })
  }
  return (
    <form className="acct-prices" onSubmit={apply} data-testid={TID.priceForm} aria-label="Prices">
      <p className="hint">
        {price
          ? `Prices for ${price.model || 'this session'}: ${price.name}${price.checked ? ` (${price.source}, read ${price.checked})` : ''} — USD per million tokens. Prompt caching: ${summary.accounting.caching}.`
          : `No price is known for this model: enter at least input, cache read and output. Prompt caching: ${summary.accounting.caching}.`}
      </p>
      <div className="acct-price-fields">
        {FIELDS.map(([k, label]) => (
          <label key={k} className="inline-field">
            <span className="field-label">{label}</span>
            <input
              className="cfg-input num"
              inputMode="decimal"
              placeholder={price ? String((price as Price)[k]) : ''}
              value={texts[k] ?? ''}
              onChange={(e) => setTexts({ ...texts, [k]: e.target.value })}
              data-field={k}
            />
          </label>
        ))}
        <button type="submit" className="button">
          Apply prices
        </button>
      </div>
    </form>
  )
}
