/**
 * A small seeded PRNG so every sample and synthetic transcript is reproducible byte for byte:
 * no Math.random, no clock. mulberry32 is fast (one multiply chain per draw) and its quality is
 * plenty for picking content; the seed is pre-mixed with splitmix32 so nearby seeds diverge.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const HEX = '0123456789abcdef'

function splitmix32(seed: number): number {
  let z = (seed + 0x9e3779b9) | 0
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

export class Rng {
  private state: number
  // Zipf tables are reused across thousands of draws, so cache the cumulative weights per shape.
  private readonly zipfTables = new Map<string, Float64Array>()

  constructor(seed: number) {
    this.state = splitmix32(seed >>> 0)
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** Index in [0, n) with P(i) ∝ 1/(i+1)^s: a few items dominate, like files an agent re-reads. */
  zipf(n: number, s = 1.1): number {
    const key = `${n}:${s}`
    let table = this.zipfTables.get(key)
    if (!table) {
      table = new Float64Array(n)
      let sum = 0
      for (let i = 0; i < n; i++) {
        sum += 1 / Math.pow(i + 1, s)
        table[i] = sum
      }
      for (let i = 0; i < n; i++) table[i] = (table[i] as number) / sum
      this.zipfTables.set(key, table)
    }
    const u = this.next()
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((table[mid] as number) < u) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private fromAlphabet(alphabet: string, length: number): string {
    let out = ''
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)]
    return out
  }

  hex(length: number): string {
    return this.fromAlphabet(HEX, length)
  }

  base62(length: number): string {
    return this.fromAlphabet(BASE62, length)
  }

  /** Valid-looking base64 (length a multiple of 4, padded) for opaque signatures. */
  base64(approxChars: number): string {
    const body = Math.max(4, approxChars - (approxChars % 4))
    const raw = this.fromAlphabet(BASE64, body - 4)
    // End like real encodings sometimes do, with one or two pad characters.
    const tail = this.chance(0.5)
      ? this.fromAlphabet(BASE64, 3) + '='
      : this.fromAlphabet(BASE64, 2) + '=='
    return raw + tail
  }

  /** RFC 4122 version-4 shaped UUID. */
  uuid(): string {
    const h = this.hex(32)
    const variant = '89ab'[this.int(0, 3)] as string
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
  }
}
