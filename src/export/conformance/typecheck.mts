// Node-only test helper: `.mts` keeps it out of tsconfig.engine.json (no Node types there); it is
// type-checked through the tests that import it (tsconfig.node.json).
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

/** The repository root: virtual files live under it so `node_modules` resolves as for real code. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const VIRTUAL_DIR = join(REPO_ROOT, '__conformance__')

/** Strict, bundler-style settings like the project's own (tsconfig.base.json). */
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  esModuleInterop: true,
  resolveJsonModule: true,
}

export interface TypeProblem {
  /** The virtual file's name as given. */
  readonly file: string
  readonly line: number
  readonly message: string
}

/**
 * Type-check a set of virtual TypeScript files in one program (one program per target keeps the
 * suite fast: the packages' declarations are read once). Imports of real packages resolve from
 * the repository's node_modules; files import each other as `./name`. Returns every error
 * reported in the virtual files.
 */
export function typecheck(files: Readonly<Record<string, string>>): TypeProblem[] {
  const byPath = new Map(
    Object.entries(files).map(([name, text]) => [join(VIRTUAL_DIR, name), text]),
  )
  const host = ts.createCompilerHost(OPTIONS, true)
  const original = {
    getSourceFile: host.getSourceFile.bind(host),
    fileExists: host.fileExists.bind(host),
    readFile: host.readFile.bind(host),
    directoryExists: host.directoryExists?.bind(host),
  }
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = byPath.get(resolve(fileName))
    return text !== undefined
      ? ts.createSourceFile(fileName, text, languageVersion, true)
      : original.getSourceFile(fileName, languageVersion, onError, shouldCreate)
  }
  host.fileExists = (fileName) => byPath.has(resolve(fileName)) || original.fileExists(fileName)
  host.readFile = (fileName) => byPath.get(resolve(fileName)) ?? original.readFile(fileName)
  host.directoryExists = (dir) =>
    resolve(dir) === VIRTUAL_DIR || (original.directoryExists?.(dir) ?? true)
  const program = ts.createProgram([...byPath.keys()], OPTIONS, host)
  const problems: TypeProblem[] = []
  for (const sf of program.getSourceFiles()) {
    const name = [...byPath.keys()].find((p) => p === resolve(sf.fileName))
    if (!name) continue
    const diagnostics = [
      ...program.getSyntacticDiagnostics(sf),
      ...program.getSemanticDiagnostics(sf),
    ]
    for (const d of diagnostics) {
      const { line } =
        d.start !== undefined ? sf.getLineAndCharacterOfPosition(d.start) : { line: 0 }
      problems.push({
        file: name.slice(VIRTUAL_DIR.length + 1),
        line: line + 1,
        message: `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
      })
    }
  }
  return problems
}
