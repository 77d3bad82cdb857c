import type { Reader } from '../core/reader.js';
import type { RunReport } from '../core/run/run-report.js';

/** `reader`: who reads the text (core/reader.ts); formats written for machines ignore it. */
type Render = (report: RunReport, reader?: Reader) => string;

interface ReportRenderer {
  /** Loaded on use: reading a config needs the format names, not the renderers. */
  load(): Promise<Render>;
  /** What the format is for, in `--format` help. */
  summary: string;
}

/**
 * Every format a run report renders to. Adding one is one renderer file and one entry here: `--format`, the
 * `output.format` config setting and their help texts are derived from this table.
 */
const reportRenderers = {
  markdown: {
    load: async () => (await import('./markdown.js')).renderMarkdown,
    summary: 'for people and agents (default)',
  },
  json: { load: async () => (await import('./json.js')).renderJson, summary: 'the full report as data' },
  sarif: { load: async () => (await import('./sarif.js')).renderSarif, summary: 'SARIF 2.1.0, for code scanning' },
  github: {
    load: async () => (await import('./github.js')).renderGithub,
    summary: 'GitHub Actions annotations (workflow commands)',
  },
  html: {
    load: async () => (await import('./html/index.js')).renderHtml,
    summary: 'one self-contained page, e.g. a CI artifact',
  },
} satisfies Record<string, ReportRenderer>;

export type ReportFormat = keyof typeof reportRenderers;
export const REPORT_FORMATS = Object.keys(reportRenderers) as [ReportFormat, ...ReportFormat[]];

export async function renderReport(report: RunReport, format: ReportFormat, reader: Reader = 'agent'): Promise<string> {
  const render = await reportRenderers[format].load();
  return render(report, reader);
}

/** `markdown (for people and agents, the default), json (…)`: the formats for help texts. */
export function describeReportFormats(): string {
  return REPORT_FORMATS.map((format) => `${format} (${reportRenderers[format].summary})`).join(', ');
}

/** A format from a loaded config, which the schema already checked against `REPORT_FORMATS`. */
export function reportFormatOf(name: string): ReportFormat {
  if (!Object.hasOwn(reportRenderers, name)) throw new Error(`no report renderer named ${name}`);
  return name as ReportFormat;
}
