/**
 * `npm run verify:exports`: every opencode export of the conformance matrix (the seven presets
 * and the edited configs) loaded by the real `opencode` binary, from the `opencode-ai` npm
 * package, with `opencode debug config --pure` — the command that prints the configuration
 * opencode resolved, and fails on a file its schema refuses.
 *
 *   npm run verify:exports            (installs opencode-ai once into node_modules/.cache)
 *   OPENCODE_BIN=/path/to/opencode npm run verify:exports
 *
 * Each run happens in its own project folder with HOME and the XDG folders pointing at empty
 * temporary ones, so no user or global config takes part. A file passes when opencode exits 0 and
 * echoes back exactly the `compaction` object we wrote (opencode drops unknown keys silently, so
 * the echo is what proves every key was understood). Two control files prove the check is real: a
 * wrong type must make opencode fail, and an unknown key must be caught by the echo comparison.
 * Exit code 0 when everything holds, 1 otherwise. Not part of `npm test`: it downloads ~180 MB.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { arch, platform, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { CONFORMANCE_CONFIGS } from '../src/export/conformance/configs.testing.ts'
import { OPENCODE_VERSION } from '../src/export/conformance/facts/opencode.ts'
import { exportTarget } from '../src/export/targets/index.ts'
import { maxOf } from '../src/engine/arrays.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CACHE = join(
  ROOT,
  'node_modules',
  '.cache',
  'compaction-lab',
  `opencode-ai-${OPENCODE_VERSION}`,
)

/** The platform packages opencode-ai picks from, best first (its postinstall does the same). */
function candidates(dir: string): string[] {
  const os = platform() === 'win32' ? 'windows' : platform()
  const exe = os === 'windows' ? 'opencode.exe' : 'opencode'
  const base = `opencode-${os}-${arch()}`
  const modules = join(dir, 'node_modules')
  return [
    join(modules, 'opencode-ai', 'bin', 'opencode.exe'),
    ...['', '-baseline', '-musl', '-baseline-musl'].map((v) =>
      join(modules, `${base}${v}`, 'bin', exe),
    ),
  ]
}

function versionOf(bin: string): string | null {
  const run = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 })
  return run.status === 0 ? run.stdout.trim() : null
}

/** The opencode binary: $OPENCODE_BIN, else opencode-ai@OPENCODE_VERSION installed into the cache. */
function opencodeBinary(): { bin: string; version: string } {
  const given = process.env.OPENCODE_BIN
  if (given) {
    const version = versionOf(given)
    if (!version) throw new Error(`OPENCODE_BIN=${given} does not run (--version failed)`)
    return { bin: given, version }
  }
  const find = () =>
    candidates(CACHE)
      .filter((p) => existsSync(p) && statSync(p).size > 1_000_000)
      .map((bin) => ({ bin, version: versionOf(bin) }))
      .find((c): c is { bin: string; version: string } => c.version !== null)
  let found = find()
  if (!found) {
    console.warn(`installing opencode-ai@${OPENCODE_VERSION} into ${CACHE} …`)
    mkdirSync(CACHE, { recursive: true })
    writeFileSync(join(CACHE, 'package.json'), '{ "private": true }\n')
    execFileSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', `opencode-ai@${OPENCODE_VERSION}`],
      { cwd: CACHE, stdio: 'inherit' },
    )
    found = find()
  }
  if (!found)
    throw new Error(
      `no runnable opencode binary for ${platform()}-${arch()} in opencode-ai@${OPENCODE_VERSION}`,
    )
  return found
}

/** An empty HOME and XDG folders, and nothing else from the caller's environment. */
function isolatedEnv(root: string): NodeJS.ProcessEnv {
  const dir = (name: string) => {
    const path = join(root, name)
    mkdirSync(path, { recursive: true })
    return path
  }
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir('home'),
    USERPROFILE: dir('home'),
    XDG_CONFIG_HOME: dir('config'),
    XDG_DATA_HOME: dir('data'),
    XDG_CACHE_HOME: dir('cache'),
    XDG_STATE_HOME: dir('state'),
    TMPDIR: dir('tmp'),
  }
}

interface Outcome {
  readonly name: string
  readonly ok: boolean
  readonly detail: string
}

/** Load `text` as ./opencode.json of a fresh project and compare what opencode resolved. */
function load(bin: string, root: string, name: string, text: string) {
  const project = join(root, 'projects', name)
  mkdirSync(project, { recursive: true })
  writeFileSync(join(project, 'opencode.json'), text)
  const run = spawnSync(bin, ['debug', 'config', '--pure'], {
    cwd: project,
    env: isolatedEnv(join(root, 'env', name)),
    encoding: 'utf8',
    timeout: 120_000,
  })
  let resolved: { compaction?: unknown } | null = null
  if (run.status === 0) {
    try {
      resolved = JSON.parse(run.stdout) as { compaction?: unknown }
    } catch {
      resolved = null
    }
  }
  // The error text opencode prints (ANSI colours removed), for the report.
  const error = run.stderr
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .trim()
  return { status: run.status, resolved, error }
}

const written = (text: string) =>
  (JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as { compaction: unknown }).compaction

function main(): number {
  const { bin, version } = opencodeBinary()
  const root = mkdtempSync(join(tmpdir(), 'verify-exports-'))
  console.warn(`opencode ${version} (${bin}); isolated HOME/XDG under ${root}`)
  const outcomes: Outcome[] = []

  for (const [name, config] of CONFORMANCE_CONFIGS) {
    const out = exportTarget('opencode', config)
    const r = load(bin, root, name, out.text)
    const expected = written(out.text)
    const ok = r.status === 0 && isDeepStrictEqual(r.resolved?.compaction, expected)
    outcomes.push({
      name,
      ok,
      detail:
        r.status !== 0
          ? `refused (exit ${r.status}): ${r.error.split('\n').slice(-2).join(' ')}`
          : ok
            ? `loaded; compaction echoed as written ${JSON.stringify(expected)}`
            : `loaded but resolved ${JSON.stringify(r.resolved?.compaction)} ≠ written ${JSON.stringify(expected)}`,
    })
  }

  // Control 1: a wrong type must be refused by opencode itself.
  const badType = load(
    bin,
    root,
    'control-wrong-type',
    '{ "$schema": "https://opencode.ai/config.json", "compaction": { "auto": true, "reserved": "lots" } }\n',
  )
  const refused = badType.status !== 0 && /invalid/i.test(badType.error)
  outcomes.push({
    name: 'control: reserved "lots"',
    ok: refused,
    detail: refused
      ? `refused as it must be (exit ${badType.status}): ${badType.error.split('\n').slice(-2).join(' ')}`
      : `NOT refused (exit ${badType.status}): the check would not catch a wrong type`,
  })

  // Control 2: an unknown key loads (opencode drops it), and the echo comparison must see it.
  const unknownKey = { auto: true, prune: false, keep_last: 3 }
  const dropped = load(
    bin,
    root,
    'control-unknown-key',
    `${JSON.stringify({ $schema: 'https://opencode.ai/config.json', compaction: unknownKey })}\n`,
  )
  const caught =
    dropped.status === 0 && !isDeepStrictEqual(dropped.resolved?.compaction, unknownKey)
  outcomes.push({
    name: 'control: unknown key keep_last',
    ok: caught,
    detail: caught
      ? `loaded with the key dropped (${JSON.stringify(dropped.resolved?.compaction)}): the echo comparison catches it`
      : `not caught (exit ${dropped.status}, echo ${JSON.stringify(dropped.resolved?.compaction)})`,
  })

  const width = maxOf(outcomes.map((o) => o.name.length))
  for (const o of outcomes)
    console.log(`${o.ok ? 'ok  ' : 'FAIL'} ${o.name.padEnd(width)}  ${o.detail}`)
  const exports = outcomes.slice(0, -2)
  const controls = outcomes.slice(-2)
  console.log(
    `\nopencode ${version}: ${exports.filter((o) => o.ok).length}/${exports.length} exports load as written; ` +
      (controls.every((o) => o.ok)
        ? 'controls behave (wrong type refused, unknown key caught)'
        : 'a control FAILED: the check is not proving anything'),
  )
  return outcomes.every((o) => o.ok) ? 0 : 1
}

process.exitCode = main()
