import { type Finding, type Severity, severityRank } from '../finding.js';
import type { ConfigLocations } from './config-locations.js';
import { failureExcerpt, failureLines } from './failure-excerpt.js';
import { blockingFindings, type ToolReport } from './run-report.js';

/**
 * What an agent is told about each finding, self-contained: Claude Code and Codex hand their model only an MCP
 * result's `structuredContent`, so nothing may live only in the Markdown. The same list feeds the Markdown text.
 */
export interface AgentFinding {
  id: string;
  validator: string;
  severity: Severity;
  title: string;
  /** `path:line:column` (as much as is known); a failed check points at the config line that defines it. */
  location?: string;
  path?: string;
  line?: number;
  column?: number;
  /** What is wrong, in a few lines: the failure lines of a failed check, the explanation of any other finding. */
  message: string;
  /** The rule or check that produced it. */
  rule?: string;
  /** Where to read about the rule: its URL when the finding names one. */
  help?: string;
  /** A failed check's output: the lines that show the failure, then the tail (see failureExcerpt). */
  excerpt?: string;
  /** `by: reason` when waived: it no longer blocks. */
  waived?: string;
}

export interface AgentFindingList {
  /** Most severe first (blocking before waived), cut to the size limits. */
  findings: AgentFinding[];
  /** Findings left out by the size limits; `tollgate log RUN` shows every one. */
  omitted: number;
  /** Blocking findings in all: not waived, of a validator that did not pass (see `blockingFindings`). */
  blocking: number;
}

export interface AgentFindingOptions {
  /** Where findings without a file point. */
  places?: ConfigLocations | null;
  /** Lines of a failed check's excerpt (config `output.maxOutputLines`). */
  excerptLines: number;
  /** Most findings listed; default 20. */
  maxFindings?: number;
  /** Characters the listed findings may take together (JSON); default 40,000, the first one is always listed. */
  maxChars?: number;
}

const MESSAGE_LINES = 8;
const MESSAGE_CHARS = 1_200;
const URL_IN_TEXT = /https?:\/\/[^\s)<>\]"'`]+/;

/**
 * The findings of `tools`, most severe first, within the limits, each id once: the same finding reported by two runs
 * of one change (a complete run, then its validator alone) is one thing to fix, and listed twice it would push another
 * out of a short list. The first report of an id is kept. Pure.
 */
export function agentFindings(tools: readonly ToolReport[], options: AgentFindingOptions): AgentFindingList {
  const seen = new Set<string>();
  const blockingIds = new Set(tools.flatMap(blockingFindings).map((finding) => finding.id));
  const all = tools
    .flatMap((tool, order) => tool.findings.map((finding) => ({ finding, order })))
    .filter(({ finding }) => {
      if (seen.has(finding.id)) return false;
      seen.add(finding.id);
      return true;
    })
    .sort((a, b) => rankOf(b.finding, blockingIds) - rankOf(a.finding, blockingIds) || a.order - b.order);
  const maxFindings = options.maxFindings ?? 20;
  const maxChars = options.maxChars ?? 40_000;
  const findings: AgentFinding[] = [];
  let chars = 0;
  for (const { finding } of all) {
    if (findings.length >= maxFindings) break;
    const view = agentFinding(finding, options);
    const size = JSON.stringify(view).length;
    if (findings.length > 0 && chars + size > maxChars) break;
    findings.push(view);
    chars += size;
  }
  const blocking = all.filter(({ finding }) => blockingIds.has(finding.id)).length;
  return { findings, omitted: all.length - findings.length, blocking };
}

/** Blocking first, then the rest not waived (a passing validator's), then waived; then by severity. */
function rankOf(finding: Finding, blockingIds: ReadonlySet<string>): number {
  if (blockingIds.has(finding.id)) return 20 + severityRank(finding.severity);
  return (finding.waiver ? 0 : 10) + severityRank(finding.severity);
}

function agentFinding(finding: Finding, options: AgentFindingOptions): AgentFinding {
  const place = placeOf(finding, options.places ?? null);
  const body = finding.body?.trim() ?? '';
  const isCheckOutput = finding.validator === 'checks' && body !== '';
  const help = URL_IN_TEXT.exec(body)?.[0];
  return {
    id: finding.id,
    validator: finding.validator,
    severity: finding.severity,
    title: finding.title,
    ...place,
    message: isCheckOutput ? checkMessage(finding.title, body) : plainMessage(finding.title, body),
    ...(finding.ruleId ? { rule: finding.ruleId } : {}),
    ...(help ? { help } : {}),
    ...(isCheckOutput ? { excerpt: failureExcerpt(body, options.excerptLines) } : {}),
    ...(finding.waiver ? { waived: `${finding.waiver.by}: ${finding.waiver.reason}` } : {}),
  };
}

/** The finding's own place, or for a fileless finding of a check, the config line that defines the check. */
function placeOf(
  finding: Finding,
  places: ConfigLocations | null,
): Pick<AgentFinding, 'location' | 'path' | 'line' | 'column'> {
  if (finding.path) {
    const line = finding.line;
    const column = line !== undefined ? finding.column : undefined;
    const location = [finding.path, line, column].filter((part) => part !== undefined).join(':');
    return {
      location,
      path: finding.path,
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
    };
  }
  const configLine = finding.ruleId ? places?.configLines[finding.ruleId] : undefined;
  if (!places || configLine === undefined) return {};
  return { location: `${places.configFile}:${configLine}`, path: places.configFile, line: configLine };
}

/** A failed check: the lines that name the failure (else the output's last line). */
function checkMessage(title: string, body: string): string {
  const named = failureLines(body, 3);
  if (named.length > 0) return named.join('\n');
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  return lines.at(-2) ?? lines.at(-1) ?? title;
}

function plainMessage(title: string, body: string): string {
  if (body === '') return title;
  const lines = body.split('\n').slice(0, MESSAGE_LINES).join('\n');
  return lines.length > MESSAGE_CHARS ? `${lines.slice(0, MESSAGE_CHARS)} …` : lines;
}

/** `id` (title) for each of the first few blocking findings, for a sentence. */
export function nameFindings(list: AgentFindingList, max = 3): string {
  const blocking = list.findings.filter((finding) => !finding.waived);
  const named = blocking
    .slice(0, max)
    .map((finding) => `\`${finding.id}\` (${finding.title}${finding.location ? ` at ${finding.location}` : ''})`);
  const more = list.blocking - named.length;
  return `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
