/** Types for chromium-path.mjs (plain JS so `node scripts/ensure-chromium.mjs` needs no loader). */
export declare const SYSTEM_CHROMIUM_PATHS: readonly string[]
export declare function findChromium(): { path: string; source: string } | null
