/**
 * Recent transcripts, kept on this device only: IndexedDB (no library; a few plain requests),
 * never the URL, never sent anywhere. Bounded: at most `RECENT_LIMITS.entries` transcripts and
 * `RECENT_LIMITS.totalBytes` in all; one larger than `RECENT_LIMITS.entryBytes` is not kept (and
 * the UI says so). The oldest go first. Every call tolerates a missing or failing IndexedDB
 * (private windows, blocked storage): the app then simply does not remember.
 */

export const RECENT_LIMITS = {
  entries: 5,
  entryBytes: 25 * 1024 * 1024,
  totalBytes: 60 * 1024 * 1024,
} as const

export type RecentOrigin = 'paste' | 'file'

/** What the list shows: everything but the content. */
export interface RecentMeta {
  /** Stable for the same content: loading it again moves it to the top instead of adding it. */
  readonly id: string
  readonly name: string
  readonly origin: RecentOrigin
  readonly bytes: number
  /** ms since the epoch, when it was last loaded. */
  readonly savedAt: number
}

export interface RecentRecord extends RecentMeta {
  /** Pasted text, or the picked file as a Blob (IndexedDB stores Blobs as they are). */
  readonly data: string | Blob
}

export type KeepPlan =
  | { readonly keep: true; readonly evict: readonly string[] }
  | { readonly keep: false; readonly reason: string }

/**
 * Whether `incoming` can be kept beside `existing` (newest first), and which entries go to make
 * room: an entry with the same id is replaced; then the oldest leave until both bounds hold.
 */
export function planKeep(
  existing: readonly RecentMeta[],
  incoming: RecentMeta,
  limits: typeof RECENT_LIMITS = RECENT_LIMITS,
): KeepPlan {
  if (incoming.bytes > limits.entryBytes) {
    return {
      keep: false,
      reason: `${incoming.name} (${formatBytes(incoming.bytes)}) is not kept for next time: over the ${formatBytes(limits.entryBytes)} a transcript may take on this device.`,
    }
  }
  const others = existing.filter((e) => e.id !== incoming.id).sort((a, b) => b.savedAt - a.savedAt)
  const evict = existing.filter((e) => e.id === incoming.id).map((e) => e.id)
  let total = incoming.bytes
  let count = 1
  for (const entry of others) {
    if (count + 1 > limits.entries || total + entry.bytes > limits.totalBytes) {
      evict.push(entry.id)
      continue
    }
    count++
    total += entry.bytes
  }
  return { keep: true, evict }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`
}

const FNV_OFFSET = 0x811c9dc5

/** FNV-1a over `text[from, to)`, continuing from `h`. */
function fnv(text: string, h: number, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h
}

const hex = (h: number) => (h >>> 0).toString(16).padStart(8, '0')

/** FNV-1a over a string, as 8 hex digits: a cheap content key for pasted text. */
export function textKey(text: string): string {
  return hex(fnv(text, FNV_OFFSET, 0, text.length))
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Characters hashed between two looks at the clock. */
const HASH_STEP = 16 * 1024
/** Main-thread time one task may spend hashing before it yields. */
const HASH_TASK_MS = 8

/**
 * `textKey` in slices, each task yielding after a few milliseconds: hashing a megabyte paste in
 * one go was a 40 ms main-thread task right after the paste loaded, and fixed 128K-character
 * slices still took 26 ms for the first one, while the loop was not yet optimised (issue 14:
 * no task over 50 ms). The key does not depend on where the slices fall.
 */
export async function textKeyInSlices(text: string): Promise<string> {
  let h = FNV_OFFSET
  // The caller runs inside the task that painted the load: the hash starts in a task of its own.
  await nextTask()
  let taskStart = performance.now()
  for (let from = 0; from < text.length; from += HASH_STEP) {
    if (performance.now() - taskStart > HASH_TASK_MS) {
      await nextTask()
      taskStart = performance.now()
    }
    h = fnv(text, h, from, Math.min(text.length, from + HASH_STEP))
  }
  return hex(h)
}

/**
 * The id of a paste (its content) or a file (name and size: a file re-opened from this store is
 * a new File object with a new date, and must not count as another transcript).
 */
export function recentId(data: string | Blob, name: string): string {
  if (typeof data === 'string') return pasteId(textKey(data), data)
  return `file:${name}:${data.size}`
}

const pasteId = (key: string, text: string) => `paste:${key}:${text.length}`

const DB_NAME = 'compaction-lab'
/**
 * Version 2 adds `META_STORE` beside the transcripts: listing the kept files (twice per load)
 * read every kept transcript whole with `getAll` just for five names and sizes.
 */
const DB_VERSION = 2
/** The transcripts themselves: `RecentRecord`s (metadata and content), keyed by id. */
const DATA_STORE = 'recent-transcripts.v1'
/** Their metadata alone (`RecentMeta`), same keys: what the list reads. */
const META_STORE = 'recent-meta.v1'
const BOTH = [DATA_STORE, META_STORE]

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'))
  })
}

/**
 * Creates what `oldVersion` lacks. A version-1 database has transcripts but no metadata store:
 * their metadata is copied over once, inside the upgrade, so nothing kept is lost from the list.
 */
function upgrade(db: IDBDatabase, tx: IDBTransaction, oldVersion: number): void {
  if (!db.objectStoreNames.contains(DATA_STORE)) db.createObjectStore(DATA_STORE, { keyPath: 'id' })
  if (db.objectStoreNames.contains(META_STORE)) return
  const metas = db.createObjectStore(META_STORE, { keyPath: 'id' })
  if (oldVersion === 0) return
  const cursor = tx.objectStore(DATA_STORE).openCursor()
  cursor.onsuccess = () => {
    const at = cursor.result
    if (!at) return
    metas.put(metaOf(at.value as RecentRecord))
    at.continue()
  }
}

let opened: Promise<IDBDatabase> | null = null

function openDb(): Promise<IDBDatabase> {
  if (opened) return opened
  opened = new Promise<IDBDatabase>((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('IndexedDB is not available'))
      return
    }
    const req = indexedDB.open(DB_NAME, DB_VERSION)
    req.onupgradeneeded = (event) => {
      if (req.transaction) upgrade(req.result, req.transaction, event.oldVersion)
    }
    req.onsuccess = () => {
      // Another tab with a newer version asks us to step aside: close, and reopen next time.
      req.result.onversionchange = () => {
        req.result.close()
        opened = null
      }
      resolve(req.result)
    }
    req.onerror = () => reject(req.error ?? new Error('IndexedDB did not open'))
    req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'))
  })
  // A failed open is not cached: storage may come back (another tab closed).
  opened.catch(() => {
    opened = null
  })
  return opened
}

async function withStores<T>(
  names: string | string[],
  mode: IDBTransactionMode,
  fn: (tx: IDBTransaction) => Promise<T>,
): Promise<T> {
  const db = await openDb()
  const tx = db.transaction(names, mode)
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
  })
  const result = await fn(tx)
  await done
  return result
}

function metaOf(record: RecentMeta): RecentMeta {
  const { id, name, origin, bytes, savedAt } = record
  return { id, name, origin, bytes, savedAt }
}

/** Every kept transcript, newest first (metadata only); empty when storage is unavailable. */
export async function listRecent(): Promise<RecentMeta[]> {
  try {
    const all = await withStores(META_STORE, 'readonly', (tx) =>
      request(tx.objectStore(META_STORE).getAll() as IDBRequest<RecentMeta[]>),
    )
    return all.map(metaOf).sort((a, b) => b.savedAt - a.savedAt)
  } catch {
    return []
  }
}

export async function readRecent(id: string): Promise<RecentRecord | null> {
  try {
    const record = await withStores(DATA_STORE, 'readonly', (tx) =>
      request(tx.objectStore(DATA_STORE).get(id) as IDBRequest<RecentRecord | undefined>),
    )
    return record ?? null
  } catch {
    return null
  }
}

/** Deletes `ids` from both stores inside `tx`. */
async function deleteBoth(tx: IDBTransaction, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await request(tx.objectStore(DATA_STORE).delete(id))
    await request(tx.objectStore(META_STORE).delete(id))
  }
}

export async function forgetRecent(id: string): Promise<void> {
  try {
    await withStores(BOTH, 'readwrite', (tx) => deleteBoth(tx, [id]))
  } catch {
    // Nothing kept, or storage gone: there is nothing to forget.
  }
}

export type KeepResult =
  | { readonly kept: true; readonly meta: RecentMeta }
  | { readonly kept: false; readonly reason: string }

/** Keep a transcript that loaded (replacing the same content, evicting the oldest to fit). */
export async function keepRecent(
  data: string | Blob,
  name: string,
  origin: RecentOrigin,
  now: number,
): Promise<KeepResult> {
  const bytes = typeof data === 'string' ? new Blob([data]).size : data.size
  // The same id as `recentId`, hashed a slice per task.
  const id =
    typeof data === 'string' ? pasteId(await textKeyInSlices(data), data) : recentId(data, name)
  const meta: RecentMeta = { id, name, origin, bytes, savedAt: now }
  try {
    const existing = await listRecent()
    const plan = planKeep(existing, meta)
    if (!plan.keep) return { kept: false, reason: plan.reason }
    const record: RecentRecord = { ...meta, data }
    // Storing a megabyte copies it on this thread: not in the same task as anything else.
    await nextTask()
    // One transaction: the list and the content never disagree about what is kept.
    await withStores(BOTH, 'readwrite', async (tx) => {
      await deleteBoth(tx, plan.evict)
      await request(tx.objectStore(DATA_STORE).put(record))
      await request(tx.objectStore(META_STORE).put(meta))
    })
    return { kept: true, meta }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    return { kept: false, reason: `${name} is not kept for next time: ${why}.` }
  }
}
