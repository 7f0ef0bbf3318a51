import type { BrowserResult, BrowserWindow } from './browser.ts'

const row = (label: string, w: BrowserWindow) =>
  `| ${label} | ${w.ms} | ${w.longestTaskMs || '< 50'} | ${w.longTasks} | ${w.longestFrameGapMs} |`

/** The browser section of RESULTS.md: drop-to-paint, edit-to-update and main-thread tasks. */
export function renderBrowser(r: BrowserResult): string[] {
  const out = ['', '## The app in Chromium (built app, driven like a user)', '']
  if (r.kind === 'skipped') return [...out, `Skipped: ${r.reason}.`]
  const { drop, edit } = r
  out.push(
    'Longest task = the Long Tasks API (only tasks over 50 ms are reported; "< 50" means none); ' +
      'frame gap = the longest time between two animation frames. Targets: first budget ≤ 1.5 s ' +
      'for 10 MB, edit-to-update ≤ 150 ms, no main-thread task over 50 ms.',
    '',
    '| step | ms | longest task (ms) | long tasks | longest frame gap (ms) |',
    '|---|---|---|---|---|',
    row(`drop ${(drop.bytes / 1e6).toFixed(1)} MB → token total on screen`, drop.firstTotal),
    row(`drop ${(drop.bytes / 1e6).toFixed(1)} MB → budget before/after painted`, drop.firstBudget),
  )
  edit.presetSwitch.forEach((w, i) =>
    out.push(row(`${edit.messages} messages: preset switch ${i + 1}`, w)),
  )
  ;(edit.fieldEdit ?? []).forEach((w, i) =>
    out.push(row(`${edit.messages} messages: context window typed in the editor ${i + 1}`, w)),
  )
  if (r.paste)
    out.push(row(`paste of ${(r.paste.bytes / 1e6).toFixed(1)} MB (Ctrl+V) → text taken`, r.paste))
  out.push(
    '',
    `The drop rows start at the drop event: the file is built in the page first (the harness handing its ${(drop.bytes / 1e6).toFixed(1)} MB of text over the DevTools protocol took ${drop.handoffMs ?? '?'} ms, not counted).`,
    '',
    `Production build, fresh tab, navigation → the sample's budget painted: ${r.firstView.runs.join(', ')} ms (median ${r.firstView.medianMs}).`,
    '',
    `Median preset switch → views updated: ${edit.presetSwitchMedian} ms; median field edit → ` +
      `views updated: ${edit.fieldEditMedian ?? 'n/a'} ms (includes the editor's ${r.debounceMs} ms debounce; from the first input event the typing fires — Playwright's fill before it took ${fillMedian(edit.fieldEdit)} ms, not counted). ` +
      'The replay timeline fills in after these (it is computed after the summary and is not part of the figure).',
  )
  if (edit.fieldEditSplit)
    out.push(
      '',
      `Field edit split (medians): the run request → its reply ${edit.fieldEditSplit.workerMs} ms ` +
        `(the worker), the reply's clone on the UI thread ${edit.fieldEditSplit.cloneMs} ms, the ` +
        `rest of that task (the views that read the summary at once) ${edit.fieldEditSplit.mainMs} ms.`,
    )
  if (edit.fieldEditSettle)
    out.push(
      '',
      `A field edit after a pause: views updated after the first compaction round at ` +
        `${edit.fieldEditSettle.painted} ms; the idempotence round's verdict in at ` +
        `${edit.fieldEditSettle.settled} ms (both from the keystroke, debounce included; the ` +
        'invariants say "checking idempotence" in between).',
    )
  return out
}

/** Median of the harness's fill time before each edit's first input event. */
function fillMedian(edits: readonly { readonly fillMs?: number }[] | null): string {
  const xs = (edits ?? []).flatMap((e) => (e.fillMs === undefined ? [] : [e.fillMs]))
  if (xs.length === 0) return '?'
  return String([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)])
}
