/** See cli-bundle.mjs: the CLI's cached bundle. */
export const READS_IMPORT_META: string
export function cliBundle(): Promise<URL>
