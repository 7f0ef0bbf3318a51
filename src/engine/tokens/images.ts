/**
 * Images are not prose: providers bill them by pixel area, not by the base64 text. We read the
 * dimensions from the image header (PNG, GIF, JPEG, WebP) without decoding the whole payload and
 * apply the provider's published formula; unknown dimensions get a labelled default.
 */

export type ModelFamily = 'openai' | 'claude' | 'gemini' | 'other'

export interface Dimensions {
  readonly width: number
  readonly height: number
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const INDEX = new Int16Array(128).fill(-1)
for (let i = 0; i < B64.length; i++) INDEX[B64.charCodeAt(i)] = i
INDEX['-'.charCodeAt(0)] = 62 // base64url
INDEX['_'.charCodeAt(0)] = 63

/** Decode at most `maxBytes` bytes from the start of a base64 string. */
export function decodeBase64Prefix(data: string, maxBytes: number): Uint8Array {
  const out = new Uint8Array(Math.min(maxBytes, Math.floor((data.length * 3) / 4)))
  let n = 0
  let buffer = 0
  let bits = 0
  for (let i = 0; i < data.length && n < out.length; i++) {
    const code = data.charCodeAt(i)
    const v = code < 128 ? (INDEX[code] ?? -1) : -1
    if (v < 0) continue
    buffer = ((buffer << 6) | v) & 0xffffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[n++] = (buffer >> bits) & 0xff
    }
  }
  return out.subarray(0, n)
}

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0)
const u16le = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8)
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | ((b[i + 2] ?? 0) << 16)
const u32be = (b: Uint8Array, i: number) => ((u16be(b, i) << 16) >>> 0) + u16be(b, i + 2)

/** Width and height from the header of a base64 image, or null when not recognised. */
export function imageDimensions(base64: string): Dimensions | null {
  const b = decodeBase64Prefix(base64, 64 * 1024)
  if (b.length < 24) return null
  // PNG: signature, then IHDR width/height (big-endian).
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    return { width: u32be(b, 16), height: u32be(b, 20) }
  }
  // GIF87a / GIF89a: logical screen size (little-endian).
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) {
    return { width: u16le(b, 6), height: u16le(b, 8) }
  }
  // WebP: RIFF....WEBP + VP8 / VP8L / VP8X chunk.
  if (b[0] === 0x52 && b[1] === 0x49 && b[8] === 0x57 && b[9] === 0x45) {
    const chunk = String.fromCharCode(b[12] ?? 0, b[13] ?? 0, b[14] ?? 0, b[15] ?? 0)
    if (chunk === 'VP8 ') return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff }
    if (chunk === 'VP8L') {
      const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24)
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
    }
    if (chunk === 'VP8X') return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 }
    return null
  }
  // JPEG: walk the segments to the first start-of-frame marker.
  if (b[0] === 0xff && b[1] === 0xd8) {
    let i = 2
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null
      const marker = b[i + 1] ?? 0
      const isSof = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)
      if (isSof) return { width: u16be(b, i + 7), height: u16be(b, i + 5) }
      i += 2 + u16be(b, i + 2)
    }
  }
  return null
}

export interface ImagePrice {
  readonly tokens: number
  /** Which rule priced it, for the "≈" label in the UI. */
  readonly rule: string
}

/** Used when the header cannot be read (URL or file-id images): a typical screenshot. */
const DEFAULT_DIMS: Dimensions = { width: 1024, height: 1024 }

/** Tokens a provider bills for one image. */
export function imageTokens(
  family: ModelFamily,
  dims: Dimensions | null,
  detail?: string,
): ImagePrice {
  const d = dims ?? DEFAULT_DIMS
  const assumed = dims ? '' : ', size unknown: 1024×1024 assumed'
  switch (family) {
    case 'claude': {
      // Anthropic: resized to fit 1568 px on the long edge, then ≈ w·h / 750.
      const scale = Math.min(1, 1568 / Math.max(d.width, d.height))
      const w = Math.round(d.width * scale)
      const h = Math.round(d.height * scale)
      return { tokens: Math.ceil((w * h) / 750), rule: `Anthropic image: w×h/750${assumed}` }
    }
    case 'gemini': {
      // Gemini: 258 per image up to 384 px, else 258 per 768×768 tile.
      if (d.width <= 384 && d.height <= 384)
        return { tokens: 258, rule: `Gemini image: 258${assumed}` }
      const tiles = Math.ceil(d.width / 768) * Math.ceil(d.height / 768)
      return { tokens: 258 * tiles, rule: `Gemini image: 258 per 768px tile${assumed}` }
    }
    case 'openai':
    case 'other': {
      if (detail === 'low') return { tokens: 85, rule: 'OpenAI image, low detail: 85' }
      // OpenAI high detail: fit in 2048², shortest side to 768, then 170 per 512 px tile + 85.
      let w = d.width
      let h = d.height
      const fit = Math.min(1, 2048 / Math.max(w, h))
      w *= fit
      h *= fit
      const shrink = Math.min(1, 768 / Math.min(w, h))
      w *= shrink
      h *= shrink
      const tiles = Math.ceil(w / 512) * Math.ceil(h / 512)
      return { tokens: 85 + 170 * tiles, rule: `OpenAI image: 85 + 170 per 512px tile${assumed}` }
    }
  }
}
