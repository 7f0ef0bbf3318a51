/**
 * The data types the UI renders, re-exported so components never reach into the engine or the
 * formats (the UI gets runtime data only through the worker client, via this store).
 */
export type {
  GroupKind,
  InspectReport,
  TokenCategory,
  TokenSummary,
  ReportedSummary,
} from '../engine/inspect-types.ts'
export type { FormatId } from '../engine/model.ts'
export type { TokenizerId } from '../engine/tokens/types.ts'
export type { Detection, ParseWarning } from '../formats/types.ts'
export type {
  BudgetCategories,
  CompareDifference,
  ConfigModel,
  KindModel,
  NumberBounds,
  CompareSide,
  GroupDetail,
  GroupStatus,
  RiskFigures,
  RiskItem,
  RunRisk,
  SweepPoint,
  WireMessage,
  WirePart,
  WirePreset,
  WireStrategy,
  WireUpstreamMarker,
  LoadPhase,
  MessagePreview,
  ReplaySeries,
  RunSummary,
  RunView,
  GroupFacts,
  WireDecision,
  WireDecisions,
  WireProblem,
} from '../worker/protocol.ts'
export type { Params, Reply, RequestKind } from '../worker/protocol.ts'
export type { LoadStatus, InputOrigin, LoadProgress } from './slices/transcript.ts'
export type { SampleEntry } from './slices/samples.ts'
export type { DensityPref, ThemePref } from './slices/prefs.ts'
export type { ConfigIssue, PresetId, RunProgress, RunStatus } from './slices/run.ts'
export type { DetailTab, MainView, MessageRange, TableChip } from './slices/view.ts'
