/** Our own SWE-agent 0.x fixture (text actions), shared by the format tests and the e2e. */

const body = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}:line ${i}`).join('\n')

/** A SWE-agent 0.x trajectory: two reads of the same file (`cat`), an edit in between. */
export const sweTextTrajectory = {
  environment: 'swe_main',
  trajectory: [],
  history: [
    { role: 'system', content: 'SETTING: you work in a shell', agent: 'primary' },
    { role: 'user', content: 'ISSUE: fix x.py', agent: 'primary' },
    {
      role: 'assistant',
      content: 'Look at the file.\n\n```\ncat src/x.py\n```\nThen decide.',
      thought: 'Look at the file.\n\n',
      action: 'cat src/x.py\n',
      agent: 'primary',
    },
    { role: 'user', content: `${body(400)}\n(Open file: n/a)\nbash-$`, agent: 'primary' },
    {
      role: 'assistant',
      content: 'Again, to be sure.\n```\ncat src/x.py\n```',
      action: 'cat src/x.py',
      agent: 'primary',
    },
    { role: 'user', content: `${body(400)}\nbash-$`, agent: 'primary' },
    { role: 'assistant', content: 'Done.\n```\nsubmit\n```', action: 'submit\n', agent: 'primary' },
  ],
  info: { exit_status: 'submitted' },
}
