/** Output sinks, injected so commands are testable without spawning a process. */
export interface Io {
  stdout(text: string): void
  stderr(text: string): void
}

export const processIo: Io = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
}
