/**
 * A compact, dependency-free SHA-256 (FIPS 180-4). The engine is lib-free (ES2022 only: no
 * `crypto`, no `TextEncoder`), and adachsoft records `hash('sha256', json_encode($value))` for
 * every omitted field, so we compute it ourselves.
 */

/** First 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = (() => {
  const k = new Uint32Array(64)
  let n = 0
  for (let candidate = 2; n < 64; candidate++) {
    let prime = true
    for (let d = 2; d * d <= candidate; d++) if (candidate % d === 0) prime = false
    if (!prime) continue
    const root = Math.cbrt(candidate)
    k[n++] = Math.floor((root - Math.floor(root)) * 0x100000000)
  }
  return k
})()

const H0 = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]

/** UTF-8 bytes of a JS string (a lone surrogate becomes U+FFFD, as `TextEncoder` does). */
export function utf8Bytes(text: string): Uint8Array {
  const out = new Uint8Array(utf8Length(text))
  let o = 0
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1)
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00)
        i++
      } else c = 0xfffd
    }
    if (c < 0x80) out[o++] = c
    else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6)
      out[o++] = 0x80 | (c & 63)
    } else if (c < 0x10000) {
      out[o++] = 0xe0 | (c >> 12)
      out[o++] = 0x80 | ((c >> 6) & 63)
      out[o++] = 0x80 | (c & 63)
    } else {
      out[o++] = 0xf0 | (c >> 18)
      out[o++] = 0x80 | ((c >> 12) & 63)
      out[o++] = 0x80 | ((c >> 6) & 63)
      out[o++] = 0x80 | (c & 63)
    }
  }
  return out
}

/** Byte length of the UTF-8 encoding (PHP `strlen` of the same text). */
export function utf8Length(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        n += 4
        i++
      } else n += 3
    } else n += 3
  }
  return n
}

/** SHA-256 of raw bytes, as 64 lowercase hex digits. */
export function sha256Hex(bytes: Uint8Array): string {
  const length = bytes.length
  // Message + 0x80 + zero padding + 64-bit big-endian bit length, to a multiple of 64 bytes.
  const blocks = Math.ceil((length + 9) / 64)
  const data = new Uint8Array(blocks * 64)
  data.set(bytes)
  data[length] = 0x80
  const view = new DataView(data.buffer)
  view.setUint32(data.length - 8, Math.floor(length / 0x20000000))
  view.setUint32(data.length - 4, (length * 8) >>> 0)

  const h = H0.slice()
  const w = new Uint32Array(64)
  for (let b = 0; b < blocks; b++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(b * 64 + t * 4)
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15] as number
      const y = w[t - 2] as number
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10)
      w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) >>> 0
    }
    let [a, bb, c, d, e, f, g, hh] = h as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ]
    for (let t = 0; t < 64; t++) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
      const ch = (e & f) ^ (~e & g)
      const t1 = (hh + s1 + ch + (K[t] as number) + (w[t] as number)) >>> 0
      const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
      const maj = (a & bb) ^ (a & c) ^ (bb & c)
      const t2 = (s0 + maj) >>> 0
      hh = g
      g = f
      f = e
      e = (d + t1) >>> 0
      d = c
      c = bb
      bb = a
      a = (t1 + t2) >>> 0
    }
    const next = [a, bb, c, d, e, f, g, hh]
    for (let i = 0; i < 8; i++) h[i] = ((h[i] as number) + (next[i] as number)) >>> 0
  }
  return h.map((x) => x.toString(16).padStart(8, '0')).join('')
}

/** SHA-256 of the UTF-8 encoding of `text` (PHP `hash('sha256', $text)`). */
export function sha256(text: string): string {
  // Hashing is the costly part of re-planning (the same payloads are hashed on every config edit
  // and replay point), and the answer depends only on the text: memoise by content, cleared when
  // full so memory stays bounded.
  let hex = digests.get(text)
  if (hex === undefined) {
    hex = sha256Hex(utf8Bytes(text))
    if (digests.size >= 50_000) digests.clear()
    digests.set(text, hex)
  }
  return hex
}

const digests = new Map<string, string>()

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n))
}
