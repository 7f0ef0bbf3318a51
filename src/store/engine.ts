import { EngineClient } from '../worker/client.ts'

/**
 * The one engine client of the app. Created lazily so importing the store (e.g. in a unit test)
 * does not spawn a worker; `setEngineClient` lets tests inject a fake.
 */
let client: EngineClient | null = null

export function engineClient(): EngineClient {
  client ??= new EngineClient()
  return client
}

export function setEngineClient(next: EngineClient): void {
  client?.dispose()
  client = next
}
