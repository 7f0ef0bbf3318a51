import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/**
 * The lint rule that keeps unbounded spreads out of calls (issue 10): `push(...decisions)` of a
 * 150k-decision run overflowed the stack. Checked through the real config so that removing or
 * weakening the rule fails here.
 */
describe('eslint: no spreading arrays into push / Math.max / fromCharCode', () => {
  const eslint = new ESLint({ cwd: process.cwd() })
  const lint = async (code: string, filePath = 'src/engine/example.ts') => {
    const [result] = await eslint.lintText(code, { filePath })
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').length
  }

  it('flags every spread form, in engine, UI and scripts alike', async () => {
    expect(await lint('export function f(a: number[], b: number[]) { a.push(...b) }\n')).toBe(1)
    expect(await lint('export const f = (a: number[]) => Math.max(...a)\n')).toBe(1)
    expect(await lint('export const f = (a: number[]) => Math.min(0, ...a)\n')).toBe(1)
    expect(await lint('export const f = (a: number[]) => String.fromCharCode(...a)\n')).toBe(1)
    expect(await lint('export const f = (a: number[], b: number[]) => a.unshift(...b)\n')).toBe(1)
    expect(await lint('export const f = (a: number[]) => Math.max.apply(null, a)\n')).toBe(1)
    expect(
      await lint('export const f = (a: number[], b: number[]) => a.push(...b)\n', 'src/ui/x.ts'),
    ).toBe(1)
    expect(await lint('export const f = (a, b) => a.push(...b)\n', 'scripts/x.mjs')).toBe(1)
  })

  it('leaves array literals and loops alone', async () => {
    expect(await lint('export const f = (a: number[], b: number[]) => [...a, ...b]\n')).toBe(0)
    expect(
      await lint('export function f(a: number[], b: number[]) { for (const x of b) a.push(x) }\n'),
    ).toBe(0)
  })
})
