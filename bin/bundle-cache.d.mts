/** See bundle-cache.mjs: one TypeScript entry bundled once and cached until an input changes. */
export interface BundleOptions {
  /** The checkout's root: input paths in the manifest are relative to it. */
  readonly root: string
  /** Absolute path of the entry module. */
  readonly entry: string
  /** The bundle's file name in the cache, without `.mjs`. */
  readonly name: string
  /** esbuild's `define`, as is. */
  readonly define?: Readonly<Record<string, string>>
}

export function cachedBundle(options: BundleOptions): Promise<URL>
