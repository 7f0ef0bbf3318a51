// Run by run-ts.test.ts through bin/run-ts.mjs: prints how this file was compiled.
function outer(): () => number {
  const inner = (): number => {
    throw new Error('thrown on line 4')
  }
  return inner
}

const made = outer()
let frame = ''
try {
  made()
} catch (error) {
  frame = String((error as Error).stack).split('\n')[1] ?? ''
}
console.log(JSON.stringify({ name: made.name, source: outer.toString(), frame }))
