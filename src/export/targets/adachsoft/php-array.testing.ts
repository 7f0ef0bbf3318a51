/**
 * Test-only reader for the PHP file the adachsoft export writes (`php` is not installed in CI):
 * finds `return <array>;` and turns the short-array literal into JS values. Supports exactly what
 * PHP allows there and the exporter could emit — single-quoted strings, integers, floats,
 * true/false/null, lists and `key => value` maps with trailing commas — and throws on the rest,
 * so a malformed export fails the test.
 */
export type PhpJs = string | number | boolean | null | PhpJs[] | { [key: string]: PhpJs }

export function parsePhpReturnArray(source: string): PhpJs {
  if (!source.startsWith('<?php')) throw new Error('missing <?php open tag')
  // Comments never contain the return statement; strip them line by line outside strings.
  const code = source
    .split('\n')
    // `<?php // …`: the open tag may carry a comment on its own line.
    .map((line, n) => (n === 0 ? line.replace(/\/\/.*$/, '') : line))
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n')
  const at = code.search(/\breturn\s/)
  if (at < 0) throw new Error('no return statement')
  let i = at + 'return'.length
  const ws = () => {
    while (i < code.length && /\s/.test(code[i] as string)) i++
  }
  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${i}: ${JSON.stringify(code.slice(i, i + 20))}`)
  }
  const value = (): PhpJs => {
    ws()
    const c = code[i]
    if (c === "'") {
      let out = ''
      i++
      for (;;) {
        const ch = code[i]
        if (ch === undefined) fail('unterminated string')
        if (ch === '\\' && (code[i + 1] === "'" || code[i + 1] === '\\')) {
          out += code[i + 1]
          i += 2
        } else if (ch === "'") {
          i++
          return out
        } else {
          out += ch
          i++
        }
      }
    }
    if (c === '[') {
      i++
      const list: PhpJs[] = []
      const map: Record<string, PhpJs> = {}
      let keyed: boolean | null = null
      for (;;) {
        ws()
        if (code[i] === ']') {
          i++
          return keyed ? map : list
        }
        const first = value()
        ws()
        if (code.startsWith('=>', i)) {
          i += 2
          if (keyed === false) fail('mixed keyed and list entries')
          keyed = true
          if (typeof first !== 'string' && typeof first !== 'number') fail('bad key')
          map[String(first)] = value()
        } else {
          if (keyed === true) fail('mixed keyed and list entries')
          keyed = false
          list.push(first)
        }
        ws()
        if (code[i] === ',') i++
        else if (code[i] !== ']') fail('expected , or ]')
      }
    }
    const m = /^(-?\d+(?:\.\d+)?|true|false|null)\b/.exec(code.slice(i))
    if (!m) return fail('unexpected token')
    i += m[0].length
    const word = m[0]
    if (word === 'true') return true
    if (word === 'false') return false
    if (word === 'null') return null
    return Number(word)
  }
  const result = value()
  ws()
  if (code[i] !== ';') fail('expected ; after the array')
  return result
}
