import { describe, expect, it } from 'vitest'
import { assessRisk } from './assess.ts'
import { build } from './builder.testing.ts'
import { LABELLED_CASES } from './labelled.testing.ts'

/**
 * Issue 13 acceptance (risk): precision ≥ 0.9 on our own hand-labelled cases, recall measured and
 * printed beside it. Every removed group of every case is one labelled instance; a flagged group
 * counts as a true positive only when the expected evidence is among what the check reports.
 */
describe('removed-then-used: hand-labelled cases', () => {
  const rows = LABELLED_CASES.flatMap((c) => {
    const built = build(c.steps, c.removals, c.extra)
    const report = assessRisk(built.prepared, built.input)
    return c.removals.map((r) => {
      const groupId = built.groupOf[r.step] as string
      const item = report.items.find((i) => i.groupId === groupId)
      const expected = c.used.includes(r.step)
      const evidenceOk = (c.evidenceByStep?.[r.step] ?? c.evidence ?? []).every((e) =>
        (item?.evidence ?? []).some((found) => found.includes(e)),
      )
      return { name: c.name, step: r.step, expected, flagged: item !== undefined, evidenceOk, item }
    })
  })
  const tp = rows.filter((r) => r.expected && r.flagged && r.evidenceOk).length
  // A flag for the wrong reason is both a false alarm and a miss.
  const fp = rows.filter((r) => r.flagged && (!r.expected || !r.evidenceOk)).length
  const fn = rows.filter((r) => r.expected && !(r.flagged && r.evidenceOk)).length
  const precision = tp / Math.max(1, tp + fp)
  const recall = tp / Math.max(1, tp + fn)

  it('has at least 30 labelled instances, positives and negatives', () => {
    expect(rows.length).toBeGreaterThanOrEqual(30)
    expect(rows.filter((r) => r.expected).length).toBeGreaterThanOrEqual(10)
    expect(rows.filter((r) => !r.expected).length).toBeGreaterThanOrEqual(10)
  })

  it('reaches precision ≥ 0.9 (recall printed)', () => {
    const wrong = rows.filter((r) => r.flagged !== r.expected || (r.flagged && !r.evidenceOk))
    console.log(
      `risk labelled cases: ${rows.length} instances (${LABELLED_CASES.length} transcripts), ` +
        `TP ${tp} FP ${fp} FN ${fn} → precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`,
    )
    for (const r of wrong)
      console.log(
        `  ${r.flagged ? 'FLAGGED' : 'MISSED '} ${r.name} (step ${r.step})` +
          (r.item ? `: ${r.item.evidence.join(', ')}` : ''),
      )
    expect(precision).toBeGreaterThanOrEqual(0.9)
  })
})
