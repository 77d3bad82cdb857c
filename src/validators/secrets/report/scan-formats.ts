/** `tollgate scan --format`: kept apart from the renderers so the CLI can declare the flag without loading them. */
export const SCAN_FORMATS = ['markdown', 'json', 'sarif', 'github'] as const;
export type ScanFormat = (typeof SCAN_FORMATS)[number];
