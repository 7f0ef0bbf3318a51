/**
 * The view as a URL fragment, so a reload (or a shared link) comes back to the same config,
 * filters and selection. Only the fields of `UrlState` are ever written — the transcript never
 * is: `urlStateOf` copies exactly these fields out of the store and the encoder sees nothing else.
 *
 * Fragment: `#preset=lip&cfg=z.…&chip=stubbed&q=tool%3Aread&brush=3-40&sel=g12&drawer=1&tab=why`.
 * Defaults are left out so an untouched app has a clean URL. A custom config is JSON compressed
 * with deflate-raw and base64url-encoded (`z.` prefix), or plain base64url JSON (`j.`) where
 * CompressionStream is missing; the decoder reads both.
 */
import { DEFAULT_PRESET, isPresetId, type PresetId } from './slices/run.ts'
import {
  DETAIL_TABS,
  TABLE_CHIPS,
  type DetailTab,
  type MessageRange,
  type TableChip,
} from './slices/view.ts'

export interface UrlState {
  readonly preset: PresetId
  /** The edited config (our JSON object), or null while the preset is used as it is. */
  readonly config: unknown
  readonly chip: TableChip
  readonly query: string
  readonly brush: MessageRange | null
  readonly selected: string | null
  readonly drawerOpen: boolean
  readonly detailTab: DetailTab
}

/** The store fields the URL mirrors (a structural subset of AppState). */
export interface UrlSource {
  readonly selectedPreset: PresetId
  readonly customConfig: unknown
  readonly chip: TableChip
  readonly query: string
  readonly brush: MessageRange | null
  readonly selectedGroup: string | null
  readonly drawerOpen: boolean
  readonly detailTab: DetailTab
}

export const DEFAULT_URL_STATE: UrlState = {
  preset: DEFAULT_PRESET,
  config: null,
  chip: 'all',
  query: '',
  brush: null,
  selected: null,
  drawerOpen: false,
  detailTab: 'pretty',
}

/** Copy the mirrored fields, and only those, out of the store. */
export function urlStateOf(s: UrlSource): UrlState {
  return {
    preset: s.selectedPreset,
    config: s.customConfig,
    chip: s.chip,
    query: s.query,
    brush: s.brush,
    selected: s.selectedGroup,
    drawerOpen: s.drawerOpen && s.selectedGroup !== null,
    detailTab: s.detailTab,
  }
}

export interface CodecOptions {
  /** Force or forbid compression; by default it is used when the browser has CompressionStream. */
  readonly compress?: boolean
}

const hasCompression = () =>
  typeof CompressionStream === 'function' && typeof DecompressionStream === 'function'

// ── base64url ───────────────────────────────────────────────────────────────────────────────

export function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  // Chunked: String.fromCharCode(...bigArray) overflows the argument limit; 32k arguments do not.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    // eslint-disable-next-line no-restricted-syntax -- bounded: at most 0x8000 arguments
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  const padded = text.replaceAll('-', '+').replaceAll('_', '/')
  try {
    const binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4))
    return Uint8Array.from(binary, (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

async function pipe(bytes: Uint8Array, stream: GenericTransformStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream)
  return new Uint8Array(await new Response(out).arrayBuffer())
}

// ── config ──────────────────────────────────────────────────────────────────────────────────

/** A config as a URL-safe token: `z.` + deflate-raw base64url, or `j.` + base64url JSON. */
export async function encodeConfig(config: unknown, options: CodecOptions = {}): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(config))
  if (options.compress ?? hasCompression()) {
    return 'z.' + toBase64Url(await pipe(json, new CompressionStream('deflate-raw')))
  }
  return encodeConfigSync(config)
}

/** The uncompressed form, available everywhere (and synchronously). */
export function encodeConfigSync(config: unknown): string {
  return 'j.' + toBase64Url(new TextEncoder().encode(JSON.stringify(config)))
}

/** The config a token stands for; undefined when the token is damaged or cannot be read here. */
export async function decodeConfig(token: string): Promise<unknown> {
  const bytes = fromBase64Url(token.slice(2))
  if (!bytes) return undefined
  try {
    if (token.startsWith('j.')) return JSON.parse(new TextDecoder().decode(bytes))
    if (token.startsWith('z.') && hasCompression()) {
      const json = await pipe(bytes, new DecompressionStream('deflate-raw'))
      return JSON.parse(new TextDecoder().decode(json))
    }
  } catch {
    // A truncated or edited link: ignore the config rather than fail the whole restore.
  }
  return undefined
}

/**
 * Credentials never go into a URL (it ends up in history, bookmarks and shared links): a config
 * that someday carries a summariser key or headers loses those fields here, at any depth.
 */
const SECRET_KEY = /^(api[-_]?key|authorization|headers|password|secret|bearer)$/i

export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEY.test(key))
      .map(([key, inner]) => [key, withoutSecrets(inner)]),
  )
}

// ── fragment ────────────────────────────────────────────────────────────────────────────────

function parseBrush(text: string): MessageRange | null {
  const match = /^(\d+)-(\d+)$/.exec(text)
  if (!match) return null
  const from = Number(match[1])
  const to = Number(match[2])
  return from <= to ? { from, to } : null
}

/** The fragment (without `#`) for a state; fields at their default are left out. */
export async function encodeUrlState(state: UrlState, options: CodecOptions = {}): Promise<string> {
  const params = new URLSearchParams()
  if (state.preset !== DEFAULT_PRESET || state.config !== null) params.set('preset', state.preset)
  if (state.config !== null)
    params.set('cfg', await encodeConfig(withoutSecrets(state.config), options))
  if (state.chip !== 'all') params.set('chip', state.chip)
  if (state.query !== '') params.set('q', state.query)
  if (state.brush) params.set('brush', `${state.brush.from}-${state.brush.to}`)
  if (state.selected !== null) params.set('sel', state.selected)
  if (state.selected !== null && state.drawerOpen) params.set('drawer', '1')
  if (state.detailTab !== 'pretty') params.set('tab', state.detailTab)
  return params.toString()
}

/**
 * The fields a fragment states, validated one by one: an unknown preset, chip or tab, a bad
 * brush or an unreadable config is dropped and the rest still restores.
 */
export async function decodeUrlState(fragment: string): Promise<Partial<UrlState>> {
  const params = new URLSearchParams(fragment.startsWith('#') ? fragment.slice(1) : fragment)
  const out: { -readonly [K in keyof UrlState]?: UrlState[K] } = {}
  const preset = params.get('preset')
  if (preset !== null && isPresetId(preset)) out.preset = preset
  const cfg = params.get('cfg')
  if (cfg !== null) {
    const config = await decodeConfig(cfg)
    if (config !== undefined && config !== null) out.config = config
  }
  const chip = params.get('chip')
  const knownChip = TABLE_CHIPS.find((c) => c === chip)
  if (knownChip) out.chip = knownChip
  const query = params.get('q')
  if (query !== null) out.query = query
  const brush = params.get('brush')
  if (brush !== null) out.brush = parseBrush(brush)
  const selected = params.get('sel')
  if (selected) {
    out.selected = selected
    out.drawerOpen = params.get('drawer') === '1'
  }
  const tab = params.get('tab')
  const knownTab = DETAIL_TABS.find((t) => t === tab)
  if (knownTab) out.detailTab = knownTab
  return out
}
