export { assessRisk, type RiskInput, type RiskOptions } from './assess.ts'
export { NO_RISK, type RiskItem, type RiskReport } from './types.ts'
export { extractPhrases } from './phrases.ts'
export { extractKeys } from './strings.ts'
