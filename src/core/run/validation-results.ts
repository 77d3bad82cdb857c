import { formatDuration } from '../config/units.js';
import { whatEndsPendingEdit } from '../policy/pending-edit-advice.js';
import { isPassingStatus, POLICY_RESULT_NAME, type ToolStatus } from '../result.js';
import { type AgentFinding, type AgentFindingList, agentFindings, nameFindings } from './agent-findings.js';
import type { ConfigLocations } from './config-locations.js';
import { blockingFindings, findingCounts, statusLabel, type ToolReport, toolPasses } from './run-report.js';

/** What an agent reads back from a validation call: one section per tool, the findings, and the next action. */
export interface ValidationResultsView {
  /** The MCP tool the agent called (`parallel_validation`, `code_review`), named in the footer. */
  callName: string;
  status: ToolStatus;
  /** Set when the call ended before running anything (no changes, trivial, budget, circuit breaker). */
  message?: string;
  tools: readonly ToolReport[];
  /** Lines of a failed check's excerpt (config `output.maxOutputLines`). */
  maxOutputLines: number;
  /** The run, for `tollgate log RUN`. */
  runId?: string | null;
  /** Where findings without a file point (the config line of a check). */
  places?: ConfigLocations | null;
  /** Set for a call that did not run every enabled validator: whether the change stands validated all the same. */
  coverage?: CallCoverage;
}

/**
 * What a call of some validators means for the gate, which only a run of every enabled validator on one snapshot
 * satisfies: an earlier such run passed this very change (`covered`), or that run is still needed.
 */
export type CallCoverage =
  | { kind: 'covered'; runId: string }
  | {
      kind: 'needed';
      /** The call that runs every enabled validator (`parallel_validation`). */
      call: string;
      /** Enabled validators whose last run was not on this change (under this config). */
      notRun: string[];
      /** Enabled validators whose last run on this change did not pass. */
      notPassed: string[];
    };

/** The bounded, most-severe-first findings of a call: what both the Markdown and `structuredContent` list. */
export function findingsOfView(view: Pick<ValidationResultsView, 'tools' | 'maxOutputLines' | 'places'>) {
  return agentFindings(view.tools, { places: view.places ?? null, excerptLines: view.maxOutputLines });
}

/** Markdown for the agent: the same facts as the structured content. Pure. */
export function renderValidationResults(view: ValidationResultsView): string {
  const list = findingsOfView(view);
  const lines = ['## Validation Results', ''];
  if (view.message) lines.push(view.message);
  for (const tool of view.tools) {
    lines.push(`### ${tool.title} (\`${tool.name}\`): ${statusLabel(tool)} · ${formatDuration(tool.durationMs)}`);
    lines.push('', tool.summary);
    if (tool.findings.length > 0) lines.push('', `Findings: ${findingCounts(tool)}`);
    lines.push('');
  }
  if (list.findings.length > 0) {
    lines.push('### Findings, most severe first', '');
    for (const finding of list.findings) lines.push(...renderFinding(finding));
    if (list.omitted > 0) lines.push(`- … ${list.omitted} more not shown: ${seeAll(view.runId)}`);
    lines.push('');
  }
  lines.push('---', validationFooter({ ...view, findings: list }), '');
  return lines.join('\n');
}

function renderFinding(finding: AgentFinding): string[] {
  const where = finding.location ? ` \`${finding.location}\`` : '';
  const waiver = finding.waived ? ` (waived: ${finding.waived})` : '';
  const lines = [
    `- **${finding.severity}**${where} ${finding.title} · \`${finding.validator}\` · id \`${finding.id}\`${waiver}`,
  ];
  if (finding.waived) return lines;
  if (finding.message !== finding.title) lines.push(...quoted(finding.message));
  if (finding.help) lines.push(`  Help: ${finding.help}`);
  if (finding.excerpt) lines.push('  Output (failure lines, then the end):', ...quoted(finding.excerpt));
  return lines;
}

function quoted(text: string): string[] {
  return text.split('\n').map((line) => `  > ${line}`);
}

function seeAll(runId: string | null | undefined): string {
  return runId ? `\`tollgate log ${runId}\` lists them all` : '`tollgate log` lists them all';
}

export interface FooterView
  extends Pick<ValidationResultsView, 'callName' | 'status' | 'tools' | 'runId' | 'coverage'> {
  /** The call's findings as listed (default: listed from `tools`). */
  findings?: AgentFindingList;
}

/** The next action, from how the call ended; names the findings to fix, never "above" (it may be read alone). */
export function validationFooter(view: FooterView): string {
  const statuses = new Set<ToolStatus>([view.status, ...view.tools.map((tool) => tool.status)]);
  if (statuses.has('timeout') || statuses.has('budget_exhausted')) {
    return `Validation ran out of time. Do not call \`${view.callName}\` again for this change: split the change, or raise \`validation.timeout\` and start a new session.`;
  }
  if (view.status === 'invalid_input') {
    return `Fix the input the summary names and call \`${view.callName}\` again.`;
  }
  if (statuses.has('rate_limited')) {
    return `A validator was rate limited. Wait a few minutes, then call \`${view.callName}\` again.`;
  }
  // Only a passing call may say "passed": an `incomplete` or `error` validator without findings has still not passed.
  const failing = view.tools.filter((tool) => !toolPasses(tool) || blockingFindings(tool).length > 0);
  if (failing.length > 0 || !isPassingStatus(view.status)) {
    return failingFooter(view, failing);
  }
  const scoped = view.tools.filter((tool) => tool.scope);
  if (scoped.length > 0) {
    const what = scoped.map((tool) => tool.scope).join('; ');
    return `Passed on part of the change only (${what}). This does not validate the change: before declaring it done, validate the whole change (call the validation tool without paths or packages).`;
  }
  if (view.coverage) return partialPass(view, view.coverage);
  return 'Validation passed. The change may be declared done.';
}

/** A passing call of some validators: it says what it covered, and what the gate still needs before "done". */
function partialPass(view: FooterView, coverage: CallCoverage): string {
  const names = view.tools.length > 0 ? view.tools.map((tool) => tool.name).join(', ') : view.callName;
  if (coverage.kind === 'covered') {
    return `${names} passed, and run ${coverage.runId} of every enabled validator already passed this same change: it may be declared done.`;
  }
  const reasons = [
    ...(coverage.notRun.length > 0 ? [`${coverage.notRun.join(', ')} not run on this tree`] : []),
    ...(coverage.notPassed.length > 0 ? [`${coverage.notPassed.join(', ')} did not pass on it`] : []),
  ];
  const why =
    reasons.length > 0
      ? reasons.join('; ')
      : 'each validator ran on this tree, but only a run of all of them on one snapshot counts';
  return `${names} passed. Still needed before done: ${coverage.call} (${why}).`;
}

function failingFooter(view: FooterView, failing: readonly ToolReport[]): string {
  const list = view.findings ?? agentFindings(view.tools, { excerptLines: 1 });
  const again = `call \`${view.callName}\` again after your changes`;
  const withoutFindings = failing.filter((tool) => blockingFindings(tool).length === 0);
  const broken =
    withoutFindings.length > 0
      ? ` ${withoutFindings.map((tool) => `${tool.name} (${tool.status})`).join(', ')} did not pass without a finding: fix the cause its summary names (config, input or environment).`
      : '';
  if (list.blocking === 0) {
    return `${broken.trim() || 'Validation did not pass.'} Then ${again}.`;
  }
  const policy = view.tools.find((tool) => tool.name === POLICY_RESULT_NAME);
  const edits = policy ? blockingFindings(policy).flatMap((finding) => (finding.path ? [finding.path] : [])) : [];
  // What an agent reads: a person must accept a policy edit; never the command that does it.
  const ends = edits.length > 0 ? ` ${whatEndsPendingEdit({ reader: 'agent', paths: edits })}` : '';
  const others = view.tools.filter((tool) => tool.name !== POLICY_RESULT_NAME && blockingFindings(tool).length > 0);
  if (ends !== '' && others.length === 0) return `${ends.trim()}${broken} Then ${again}.`;
  return `Fix ${list.blocking} finding(s): ${nameFindings(list)}.${broken} Then ${again}. To accept a low-risk finding instead, run \`tollgate waive ID --reason "…"\`.${ends}`;
}
