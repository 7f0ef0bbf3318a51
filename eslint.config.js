import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const pureLayers = ['src/engine/**', 'src/formats/**', 'src/config/**', 'src/export/**']

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
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/main.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/engine/*/**', '**/formats/**'],
              message: 'The UI reaches the engine only through the worker client.',
            },
          ],
        },
      ],
    },
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
              group: ['react', 'react-*', 'zustand', 'zustand/*', 'recharts', '@tanstack/*'],
              message: 'Pure layers must not import UI libraries.',
            },
            {
              group: ['**/ui/**', '**/store/**', '**/worker/**'],
              message: 'Arrows point one way: engine ← formats ← worker ← store ← ui.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/cli/**', 'bench/**', 'scripts/**', 'e2e/**', 'bin/**', '**/*.test.ts'],
    rules: { 'no-console': 'off' },
  },
)
