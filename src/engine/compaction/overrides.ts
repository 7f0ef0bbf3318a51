/**
 * The working view's replaced parts, keyed by flat part number (or, for an address that names no
 * part of the conversation, a string). Flat numbers index a dense array: the invariant check, the
 * projection and strategies ask "is this part replaced?" for every part of the conversation on
 * every round, and an array read is several times cheaper than a hashed map lookup.
 */
export class OverrideTable<T> {
  private readonly dense: (T | undefined)[]
  private readonly other = new Map<string, T>()
  private count = 0

  constructor(parts: number) {
    this.dense = new Array<T | undefined>(parts)
  }

  /** Number of entries. */
  get size(): number {
    return this.count
  }

  get(key: number | string): T | undefined {
    return typeof key === 'number' ? this.dense[key] : this.other.get(key)
  }

  has(key: number | string): boolean {
    return this.get(key) !== undefined
  }

  set(key: number | string, value: T): void {
    if (typeof key === 'number') {
      if (this.dense[key] === undefined) this.count++
      this.dense[key] = value
    } else {
      if (!this.other.has(key)) this.count++
      this.other.set(key, value)
    }
  }

  delete(key: number | string): void {
    if (typeof key === 'number') {
      if (this.dense[key] !== undefined) this.count--
      this.dense[key] = undefined
    } else if (this.other.delete(key)) this.count--
  }
}
