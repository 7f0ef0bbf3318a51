/**
 * LIP `redact_text` (`src/core/common/logging_utils.py`), applied to resource identifiers when
 * `redact_resource_identifiers` is on: OpenAI/Anthropic-style API keys and ZAI keys become
 * `***`, a Bearer token keeps its scheme (`Bearer ***`). Same patterns in both modes.
 */
const API_KEY =
  /\b(?:sk[-_](?:proj|test|live|team|org|svc|[A-Za-z0-9])[A-Za-z0-9_-]{15,}|ak-(?:ant|sk|proj)[A-Za-z0-9_-]{17,})\b/g
const ZAI_KEY = /\b[0-9a-f]{32}\.[A-Za-z0-9]{16,}\b/g
const BEARER = /Bearer\s+([a-zA-Z0-9._~+/-]+=*)/g

export function redactText(text: string, mask = '***'): string {
  if (!text) return text
  return text.replace(API_KEY, mask).replace(ZAI_KEY, mask).replace(BEARER, `Bearer ${mask}`)
}
