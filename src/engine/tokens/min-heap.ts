// The heap behind BpeCounter's merge of long pieces (bpe.ts), kept apart so bpe.ts stays small.

/** A binary min-heap of non-negative integers packed as rank * scale + position. */
export class MinHeap {
  readonly scale: number
  private data: Float64Array
  size = 0

  constructor(capacityHint: number) {
    let scale = 1
    while (scale <= capacityHint) scale *= 2
    this.scale = scale
    this.data = new Float64Array(Math.max(16, capacityHint * 2))
  }

  push(value: number): void {
    if (this.size === this.data.length) {
      const grown = new Float64Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    const d = this.data
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >> 1
      const pv = d[parent] as number
      if (pv <= value) break
      d[i] = pv
      i = parent
    }
    d[i] = value
  }

  pop(): number {
    const d = this.data
    const top = d[0] as number
    const last = d[--this.size] as number
    let i = 0
    const size = this.size
    for (;;) {
      const l = 2 * i + 1
      if (l >= size) break
      const r = l + 1
      const c = r < size && (d[r] as number) < (d[l] as number) ? r : l
      if ((d[c] as number) >= last) break
      d[i] = d[c] as number
      i = c
    }
    if (size > 0) d[i] = last
    return top
  }
}
