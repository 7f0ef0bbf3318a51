/**
 * The presets' full configs, from one `describe` request shared by the sweep and compare panels
 * (a module variable: every mount after the first gets them at once), and the working config
 * both panels start from.
 */
import { useEffect, useState } from 'react'
import { isStale, requestDescribe, useConfigSource } from '../../../store/index.ts'
import type { WirePreset } from '../../../store/index.ts'

let cached: readonly WirePreset[] | null = null
let inflight: Promise<readonly WirePreset[]> | null = null

// The config editor asks `describe` too, on the same channel: whichever asks second makes the
// other's request stale. The answer is the same, so ask again a few times rather than give up.
const STALE_RETRIES = 3

async function describePresets(): Promise<readonly WirePreset[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await requestDescribe().promise).presets
    } catch (error) {
      if (!isStale(error) || attempt >= STALE_RETRIES) throw error
    }
  }
}

function loadPresets(): Promise<readonly WirePreset[]> {
  inflight ??= describePresets().then(
    (presets) => {
      cached = presets
      return presets
    },
    (error: unknown) => {
      // Let the next mount try again.
      inflight = null
      throw error
    },
  )
  return inflight
}

/** Every preset with its full config; null until the worker answered. */
export function usePresets(): readonly WirePreset[] | null {
  const [presets, setPresets] = useState(cached)
  useEffect(() => {
    if (presets) return
    let live = true
    loadPresets().then(
      (loaded) => {
        if (live) setPresets(loaded)
      },
      (error: unknown) => {
        if (!isStale(error)) console.error(error)
      },
    )
    return () => {
      live = false
    }
  }, [presets])
  return presets
}

/**
 * The config the user is looking at: the edited one, or else the selected preset's full config
 * (null until the presets arrived).
 */
export function useCurrentConfig(): unknown {
  const { selectedPreset, customConfig } = useConfigSource()
  const presets = usePresets()
  if (customConfig !== null) return customConfig
  return presets?.find((p) => p.id === selectedPreset)?.config ?? null
}
