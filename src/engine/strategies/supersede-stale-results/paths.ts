/**
 * Fixed-mode path normalisation, shared by tool-argument identities (identity.ts) and shell
 * command parsing (shell.ts) so both key the same file the same way.
 */

const isWindowsLike = (p: string): boolean => /^[A-Za-z]:(\/|$)/.test(p) || p.startsWith('//')

/**
 * Fixed path normalisation: separators unified, `.`/`..` resolved, duplicate and trailing
 * slashes dropped, relative paths resolved under `cwd` when known, Windows-looking paths
 * (drive letter or UNC) case-folded because Windows file systems are case-insensitive.
 */
export function normalizePathFixed(path: string, cwd?: string): string {
  let p = path.trim().replace(/\\/g, '/')
  const absolute = (q: string) => q.startsWith('/') || /^[A-Za-z]:/.test(q)
  if (!absolute(p) && cwd && !p.startsWith('~'))
    p = `${cwd.replace(/\\/g, '/').replace(/\/+$/, '')}/${p}`
  const windows = isWindowsLike(p)
  let prefix = ''
  if (/^[A-Za-z]:/.test(p)) {
    prefix = p.slice(0, 2)
    p = p.slice(2)
  } else if (p.startsWith('//')) prefix = '/'
  const rooted = p.startsWith('/')
  const out: string[] = []
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop()
      else if (!rooted) out.push('..')
      continue
    }
    out.push(seg)
  }
  let result = prefix + (rooted ? '/' : '') + out.join('/')
  if (result === '') result = '.'
  return windows ? result.toLowerCase() : result
}
