import { defineConfig } from 'vitest/config'

// Unit tests run in Node: the engine and formats never touch the DOM.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 120_000,
    // A test that asserts nothing cannot fail (issue 10): every test must make an assertion.
    expect: { requireAssertions: true },
    // Decisions compare by the text of their sentences, which may be written when read.
    setupFiles: ['src/engine/compaction/sentence.testing.ts'],
    hookTimeout: 120_000,
  },
})
