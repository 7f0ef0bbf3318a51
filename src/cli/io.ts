/** Output sinks, injected so commands are testable without spawning a process. */
export interface Io {
  stdout(text: string): void
  stderr(text: string): void
}

export const processIo: Io = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
}

/** Node's native validating UTF-8 decoder: throws on invalid input, so the slow path can say where. */
export const strictUtf8 = (bytes: Uint8Array): string =>
  new TextDecoder('utf-8', { fatal: true }).decode(bytes)
