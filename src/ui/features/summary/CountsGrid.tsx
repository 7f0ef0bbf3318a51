import type { GroupKind, InspectReport } from '../../../store/index.ts'
import { Section } from '../../components/Section.tsx'
import { formatCount } from '../../lib/format.ts'
import { countTestId, TID, type CountKey } from '../../testids.ts'

interface Stat {
  readonly key: CountKey
  readonly label: string
  readonly value: number
  /** Worth a second look when non-zero (orphans, pending, positional pairing). */
  readonly attention?: boolean
  readonly title?: string
}

const GROUP_LABELS: Record<GroupKind, string> = {
  system: 'system',
  user: 'user',
  assistant_text: 'assistant text',
  tool_call: 'tool call',
  summary: 'summary',
}
const GROUP_ORDER: readonly GroupKind[] = [
  'system',
  'user',
  'assistant_text',
  'tool_call',
  'summary',
]

function stats(report: InspectReport): Stat[] {
  return [
    { key: 'messages', label: 'Messages', value: report.messages },
    { key: 'turns', label: 'Turns', value: report.turns, title: 'Real user messages start a turn' },
    { key: 'groups', label: 'Groups', value: report.groups.total },
    { key: 'tool-calls', label: 'Tool calls', value: report.toolCalls },
    { key: 'tool-results', label: 'Tool results', value: report.toolResults },
    {
      key: 'orphans',
      label: 'Orphan results',
      value: report.orphans,
      attention: true,
      title: 'Results whose call is missing',
    },
    {
      key: 'pending',
      label: 'Pending calls',
      value: report.pending,
      attention: true,
      title: 'Calls without a result',
    },
    {
      key: 'paired-by-position',
      label: 'Paired by position',
      value: report.pairedByPosition,
      attention: true,
      title: 'Results matched to calls by order because ids were missing or ambiguous',
    },
    {
      key: 'markers',
      label: 'Upstream compactions',
      value: report.markers,
      title: 'Compactions the source agent already did',
    },
  ]
}

export function CountsGrid({ report }: { readonly report: InspectReport }) {
  return (
    <Section title="Structure" testId={TID.counts}>
      <div className="stats">
        {stats(report).map((stat) => (
          <div
            key={stat.key}
            className={stat.attention && stat.value > 0 ? 'stat attention' : 'stat'}
            title={stat.title}
          >
            <span
              className="stat-value"
              data-testid={countTestId(stat.key)}
              data-value={stat.value}
            >
              {formatCount(stat.value)}
            </span>
            <span className="stat-label">{stat.label}</span>
          </div>
        ))}
      </div>
      <div className="group-kinds" data-testid={TID.groupsByKind}>
        <span className="field-label">Groups by kind</span>
        {GROUP_ORDER.map((kind) => (
          <span key={kind} className={`chip kind-${kind}`} data-kind={kind}>
            {GROUP_LABELS[kind]} <b>{formatCount(report.groups[kind])}</b>
          </span>
        ))}
      </div>
    </Section>
  )
}
