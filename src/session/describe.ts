/**
 * What the config editor builds its forms from: every preset's full config, every strategy with
 * its parameter JSON Schema (generated from the strategy's own zod schema, so the form and the
 * validation can never disagree) and the JSON Schema of the whole config file.
 */
import { parseJson } from '../engine/json.ts'
import { z } from 'zod'
import { serializeConfig } from '../config/load.ts'
import { configModel } from './config-model.ts'
import { PRESET_IDS, presetConfig } from '../config/presets.ts'
import { configSchema } from '../config/schema.ts'
import { STRATEGY_REGISTRY } from '../engine/strategies/index.ts'
import type { Described, WirePreset, WireStrategy } from './types.ts'

function jsonSchemaOf(schema: z.ZodType): unknown {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })
  } catch (error) {
    // A schema zod cannot express (a transform, a custom check): the form falls back to JSON.
    return {
      description: `no JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}

export function describeConfigs(): Described {
  const presets: WirePreset[] = PRESET_IDS.map((id) => {
    const config = presetConfig(id)
    return {
      id,
      name: config.name,
      description: config.description,
      config: parseJson(serializeConfig(config)),
    }
  })
  const strategies: WireStrategy[] = [...STRATEGY_REGISTRY.values()].map((s) => {
    const defaults = s.schema.safeParse({})
    return {
      id: s.id,
      label: s.label,
      source: s.source,
      description: s.description,
      paramsSchema: jsonSchemaOf(s.schema),
      defaults: defaults.success ? (defaults.data as unknown) : null,
    }
  })
  const params = Object.fromEntries(strategies.map((s) => [s.id, s.paramsSchema]))
  return {
    presets,
    strategies,
    configSchema: jsonSchemaOf(configSchema),
    model: configModel(params),
  }
}
