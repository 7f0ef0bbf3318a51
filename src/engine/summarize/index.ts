export type { Summarizer, SummaryRequest, SummaryResult } from './types.ts'
export * from './transcript.ts'
export * from './digest.ts'
export * from './http.ts'
