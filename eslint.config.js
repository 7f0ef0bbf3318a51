import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const pureLayers = [
  'src/engine/**',
  'src/formats/**',
  'src/config/**',
  'src/export/**',
  'src/session/**',
  'src/fleet/**',
]

/**
 * The layers and the arrows between them (house style): engine ← formats, config, export ←
 * session ← fleet ← worker, cli ← store ← ui. A layer imports only from the layers its arrows point to;
 * the store and the UI may still import *types* from below (`import type`), never runtime code:
 * the UI reaches the engine only through the worker client, via the store.
 */
const UI_LIBS = ['react', 'react-*', 'zustand', 'zustand/*', 'recharts', '@tanstack/*']
/** What each layer must not import (runtime code; `types` says whether `import type` may). */
const FORBIDDEN = {
  engine: {
    layers: ['formats', 'config', 'export', 'session', 'fleet', 'worker', 'cli', 'store', 'ui'],
  },
  formats: { layers: ['session', 'fleet', 'worker', 'cli', 'store', 'ui'] },
  config: { layers: ['session', 'fleet', 'worker', 'cli', 'store', 'ui'] },
  export: { layers: ['session', 'fleet', 'worker', 'cli', 'store', 'ui'] },
  session: { layers: ['fleet', 'worker', 'cli', 'store', 'ui'] },
  // Fleet evaluation runs the session's chain over many files (pure, like the session).
  fleet: { layers: ['worker', 'cli', 'store', 'ui'] },
  worker: { layers: ['cli', 'store', 'ui'] },
  // The CLI reaches the engine through the session (or the fleet), like the worker; types may
  // come from below.
  cli: { layers: ['engine', 'worker', 'store', 'ui'], types: true },
  // The store's runtime code comes from the worker clients only; types from anywhere below.
  store: {
    layers: ['engine', 'formats', 'config', 'export', 'session', 'fleet', 'cli', 'ui'],
    types: true,
  },
  // The UI's runtime code comes from the store only; types from anywhere below.
  // The fleet view aggregates the rows it shows with the fleet's own pure quantiles (the same
  // figures the CLI's fleet report prints): that one module is its only runtime import below.
  ui: {
    layers: ['engine', 'formats', 'config', 'export', 'session', 'fleet', 'worker', 'cli'],
    types: true,
    except: ['fleet/aggregate.ts'],
  },
}
const ARROWS =
  'Arrows point one way: engine ← formats, config, export ← session ← fleet ← worker, cli ← ' +
  'store ← ui ' +
  '(the store and the UI import only types from below: `import type`).'

/**
 * Import strings are relative, so a layer is recognised by how far up the path climbs: from
 * src/ui/features/x/File.tsx (depth 4) `../../../../engine/…` is the engine layer, while
 * `../config/…` is a sibling feature folder. One block per depth keeps the two apart.
 */
const mainTsx = {
  files: ['src/main.tsx'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^\\./(${FORBIDDEN.ui.layers.join('|')})/`,
            message: ARROWS,
            allowTypeImports: true,
          },
        ],
      },
    ],
  },
}

/** A negative lookahead for a layer's allowed modules (`except`), or nothing. */
const exceptions = (rule) =>
  rule.except ? `(?!(${rule.except.map((m) => m.replaceAll('.', '\\.')).join('|')})$)` : ''

const boundaries = Object.entries(FORBIDDEN).flatMap(([name, rule]) =>
  [1, 2, 3, 4, 5].map((depth) => ({
    files: [`src/${name}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    ignores: ['**/*.test.ts', '**/*.testing.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./){${depth}}${exceptions(rule)}(${rule.layers.join('|')})(/|\\.tsx?$)`,
              message: ARROWS,
              allowTypeImports: rule.types === true,
            },
          ],
        },
      ],
    },
  })),
)

/**
 * Spreading an array into call arguments passes one argument per element, and engines cap the
 * argument count by stack size: `decisions.push(...outcome.decisions)` threw `RangeError: Maximum
 * call stack size exceeded` past ~120k decisions (issue 10). Loops (`pushAll`, `maxOf`, `minOf` in
 * src/engine/arrays.ts) have no such limit. A provably bounded chunk may opt out with an
 * eslint-disable comment that says why it is bounded.
 */
const SPREAD_INTO_CALL =
  'Spreading an array into call arguments overflows the stack past ~120k elements'
const noUnboundedSpread = [
  {
    selector:
      'CallExpression[callee.property.name=/^(push|unshift|splice|concat)$/] > SpreadElement',
    message: `${SPREAD_INTO_CALL}: use pushAll() or a loop.`,
  },
  {
    selector:
      "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min|hypot)$/] > SpreadElement",
    message: `${SPREAD_INTO_CALL}: use maxOf()/minOf() or a loop.`,
  },
  {
    selector:
      'CallExpression[callee.property.name=/^(fromCharCode|fromCodePoint)$/] > SpreadElement',
    message: `${SPREAD_INTO_CALL}: decode in bounded chunks.`,
  },
  {
    selector:
      "CallExpression[callee.property.name='apply'][callee.object.property.name=/^(push|unshift|max|min|fromCharCode|fromCodePoint)$/]",
    message: `${SPREAD_INTO_CALL}: .apply() has the same limit as a spread.`,
  },
]

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'public/samples',
      'bench/results',
      'test-results',
      'playwright-report',
      // Local, uncommitted experiments.
      'scratch',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-syntax': ['error', ...noUnboundedSpread],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/main.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The engine and the pure layers stay framework- and DOM-free (see house style).
    files: pureLayers,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: UI_LIBS,
              message: 'Pure layers must not import UI libraries.',
            },
          ],
        },
      ],
      // Parsed values are walked recursively downstream: every parse is depth-bounded (issue 10).
      'no-restricted-properties': [
        'error',
        {
          object: 'JSON',
          property: 'parse',
          message:
            'Use parseJson / parseJsonBounded from src/engine/json.ts: they bound the nesting depth.',
        },
      ],
    },
  },
  ...boundaries,
  mainTsx,
  {
    // Tests parse what they wrote, and may build deep values on purpose.
    files: ['**/*.test.ts', '**/*.testing.ts', '**/testing.ts', '**/*.mts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-restricted-syntax': ['error', ...noUnboundedSpread] },
  },
  {
    files: ['src/cli/**', 'bench/**', 'scripts/**', 'e2e/**', 'bin/**', '**/*.test.ts'],
    rules: { 'no-console': 'off' },
  },
)
