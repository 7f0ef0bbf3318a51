import type { Importer } from '../types.ts'
import { parse } from './parse.ts'
import { serialize } from './serialize.ts'
import { detect } from './shape.ts'

/**
 * LangChain / LangGraph / LangSmith messages: plain dicts (`type` human|ai|system|tool),
 * `messages_to_dict` `{type, data}` and `lc:1` constructor objects. Tool calls come from
 * `tool_calls` (objects) and content blocks, deduplicated by id; `additional_kwargs.tool_calls`
 * (the OpenAI wire mirror) is only used when nothing else records the calls.
 */
export const importer: Importer = {
  id: 'langchain',
  label: 'LangChain messages',
  detect,
  parse,
  serialize,
}
