/** The fleet view's test ids (kept beside the feature while the shell's TID list is reworked). */
export const FLEET_TID = {
  bar: 'fleet-bar',
  openFleet: 'fleet-open',
  backToFleet: 'fleet-back',
  view: 'fleet-view',
  fileInput: 'fleet-file-input',
  /** "Add a folder…": `showDirectoryPicker` where the browser has it, else the folder input. */
  folderButton: 'fleet-folder-button',
  folderInput: 'fleet-folder-input',
  progress: 'fleet-progress',
  cancel: 'fleet-cancel',
  aggregates: 'fleet-aggregates',
  table: 'fleet-table',
  /** One line per conversation; `data-name` holds its name, `data-status` its status. */
  row: 'fleet-row',
  query: 'fleet-query',
  charts: 'fleet-charts',
  chartsHeld: 'fleet-charts-held',
  configProblem: 'fleet-config-problem',
} as const
