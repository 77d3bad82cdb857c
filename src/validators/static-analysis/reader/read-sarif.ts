import { createReadStream } from 'node:fs';
import type { z } from 'zod';
import type { LineRange } from '../../../core/change-set/types.js';
import { errorMessage } from '../../../core/errors.js';
import type { ImportedSarif } from '../../../core/finding.js';
import { importedSarifOf } from './imported-sarif.js';
import { type JsonPath, JsonSplitter, JsonSyntaxError, type ValueDecision } from './json-splitter.js';
import { repoPathOf, type UriContext } from './map-uri.js';
import { baseName, fillArguments, isSuppressed, locationsOf, overlaps, securitySeverityOf } from './result-facts.js';
import {
  artifactsSchema,
  issueWhere,
  resultSchema,
  type SarifArtifacts,
  type SarifLocation,
  type SarifResult,
  type SarifRule,
  type SarifTool,
  toolSchema,
  type UriBaseIds,
  uriBaseIdsSchema,
  versionSchema,
} from './sarif-schema.js';

/** Which results are about the change: those on changed lines, or anywhere in a changed file. */
export interface RelevanceScope {
  mode: 'changed_lines' | 'changed_files';
  /** Repo-relative path → the changed lines of its new version. */
  files: ReadonlyMap<string, readonly LineRange[]>;
}

export interface ReadSarifOptions {
  /** Who wrote the log (`codeql`, `semgrep`, `eslint`, an analyzer's name): named in every problem and finding. */
  producer: string;
  /** How the file is named in messages (repo-relative when it is inside the repository). */
  label: string;
  repoRoot: string;
  /** What `%SRCROOT%` means for this producer. Default: the repository root. */
  sourceRoot?: string;
  scope: RelevanceScope;
}

export type SarifLevel = 'none' | 'note' | 'warning' | 'error';

export interface FlowStep {
  path: string | null;
  line?: number;
  message?: string;
}

/** One SARIF result that is about the change, with what a finding needs from its run. */
export interface SarifIssue {
  producer: string;
  /** `tool.driver.name` of its run (`CodeQL`, `Semgrep OSS`, `ESLint`). */
  toolName: string;
  ruleId: string;
  level: SarifLevel;
  /** The rule's `security-severity` (0–10) when it has one. */
  securitySeverity?: number;
  message: string;
  path: string;
  startLine?: number;
  endLine?: number;
  startColumn?: number;
  /** `primaryLocationLineHash`, else the first fingerprint the producer gave. */
  fingerprint?: string;
  ruleTitle?: string;
  help?: string;
  helpUri?: string;
  tags?: string[];
  /** The first thread flow of the first code flow (source → sink), when the producer recorded one. */
  flow?: FlowStep[];
  /** The result as its analyzer described it, for the SARIF tollgate writes. */
  imported?: ImportedSarif;
}

export type ReadSarifOutcome =
  | { ok: true; issues: SarifIssue[]; runs: number; results: number; tools: string[] }
  /** `problem` is one line that names the producer, the file and what is wrong. */
  | { ok: false; problem: string };

/** Results kinds that are not problems (§3.27.9). */
const NON_PROBLEM_KINDS = new Set(['pass', 'notApplicable', 'informational']);
const MAX_FLOW_STEPS = 30;

class SarifProblem extends Error {}

interface RunState {
  tool?: SarifTool;
  rules: Map<string, SarifRule>;
  baseIds: UriBaseIds;
  artifacts: SarifArtifacts;
  /** Results that may be about the change; decided when the run closes (its base ids may come after them). */
  pending: SarifResult[];
  results: number;
}

function decide(path: JsonPath): ValueDecision {
  switch (path.length) {
    case 0:
      return 'descend';
    case 1:
      if (path[0] === 'runs') return 'descend';
      return path[0] === 'version' ? 'capture' : 'skip';
    case 2:
      return path[0] === 'runs' ? 'descend' : 'skip';
    case 3:
      if (path[2] === 'results') return 'descend';
      return path[2] === 'tool' || path[2] === 'originalUriBaseIds' || path[2] === 'artifacts' ? 'capture' : 'skip';
    case 4:
      return path[2] === 'results' ? 'capture' : 'skip';
    default:
      return 'skip';
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SarifProblem(`${where}: not valid JSON (${errorMessage(error)})`);
  }
}

function validate<Schema extends z.ZodType>(schema: Schema, value: unknown, where: string): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new SarifProblem(`${issueWhere(where, issue)}: ${issue.message}`);
}

function ruleOf(result: SarifResult, run: RunState): { id: string; rule: SarifRule | undefined } {
  const explicit = result.ruleId ?? result.rule?.id;
  if (explicit !== undefined)
    return { id: explicit, rule: run.rules.get(explicit) ?? run.rules.get(explicit.split('/')[0]!) };
  const index = result.ruleIndex ?? result.rule?.index;
  const rule = index !== undefined && index >= 0 ? run.tool?.driver.rules?.[index] : undefined;
  return { id: rule?.id ?? 'unknown-rule', rule };
}

/** Reads one SARIF log: validates its shape, keeps the results that are about the change, and maps them to issues. */
class SarifReader {
  private readonly runs = new Map<number, RunState>();
  private readonly issues: SarifIssue[] = [];
  private readonly tools = new Set<string>();
  private readonly byBaseName = new Map<string, true>();
  private readonly splitter: JsonSplitter;
  private sawVersion = false;
  private sawRuns = false;
  private resultCount = 0;

  constructor(private readonly options: ReadSarifOptions) {
    for (const path of options.scope.files.keys()) this.byBaseName.set(baseName(path), true);
    this.splitter = new JsonSplitter({
      decide: (path, kind) => {
        if (path.length === 1 && path[0] === 'runs') {
          // `"runs": "x"` would otherwise read as a file with no results: a pass built on nothing.
          if (kind !== 'array')
            throw new SarifProblem(
              `runs: expected an array of runs, got ${kind === 'object' ? 'an object' : 'a single value'}`,
            );
          this.sawRuns = true;
        }
        if (path.length === 2 && path[0] === 'runs') {
          if (kind !== 'object')
            throw new SarifProblem(
              `runs[${path[1]}]: expected an object (a run), got ${kind === 'array' ? 'an array' : 'a single value'}`,
            );
          this.runs.set(path[1] as number, this.newRun());
        }
        return decide(path);
      },
      onValue: (path, text) => this.onValue(path, text),
      onClose: (path) => {
        if (path.length === 2 && path[0] === 'runs') this.finishRun(path[1] as number);
      },
    });
  }

  private newRun(): RunState {
    return { rules: new Map(), baseIds: {}, artifacts: [], pending: [], results: 0 };
  }

  write(chunk: Buffer): void {
    this.guard(() => this.splitter.write(chunk));
  }

  finish(): ReadSarifOutcome {
    try {
      this.guard(() => this.splitter.end());
      if (!this.sawVersion) throw new SarifProblem('version: missing (expected "2.1.0")');
      if (!this.sawRuns) throw new SarifProblem('runs: missing (expected an array of runs)');
    } catch (error) {
      if (error instanceof SarifProblem) return { ok: false, problem: this.describe(error.message) };
      throw error;
    }
    return { ok: true, issues: this.issues, runs: this.runs.size, results: this.resultCount, tools: [...this.tools] };
  }

  /** Turns a syntax error into a SarifProblem. */
  private guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error instanceof JsonSyntaxError) throw new SarifProblem(`not valid JSON: ${error.message}`);
      throw error;
    }
  }

  describe(problem: string): string {
    return `${this.options.producer}: ${this.options.label}: ${problem}`;
  }

  private onValue(path: JsonPath, text: string): void {
    if (path.length === 1) {
      validate(versionSchema, parseJson(text, 'version'), 'version');
      this.sawVersion = true;
      return;
    }
    const runIndex = path[1] as number;
    const run = this.runs.get(runIndex)!;
    const where = `runs[${runIndex}]`;
    if (path.length === 3) {
      const member = path[2] as string;
      const value = parseJson(text, `${where}.${member}`);
      if (member === 'tool') {
        run.tool = validate(toolSchema, value, `${where}.tool`);
        this.tools.add(run.tool.driver.name);
        for (const rule of run.tool.driver.rules ?? []) run.rules.set(rule.id, rule);
        for (const extension of run.tool.extensions ?? []) {
          for (const rule of extension.rules ?? []) if (!run.rules.has(rule.id)) run.rules.set(rule.id, rule);
        }
      } else if (member === 'originalUriBaseIds') {
        run.baseIds = validate(uriBaseIdsSchema, value, `${where}.originalUriBaseIds`);
      } else {
        run.artifacts = validate(artifactsSchema, value, `${where}.artifacts`);
      }
      return;
    }
    const resultWhere = `${where}.results[${path[3] as number}]`;
    const result = validate(resultSchema, parseJson(text, resultWhere), resultWhere);
    run.results++;
    this.resultCount++;
    if (result.kind && NON_PROBLEM_KINDS.has(result.kind)) return;
    if (isSuppressed(result)) return;
    if (this.mayBeRelevant(result)) run.pending.push(result);
  }

  /** A cheap test before the run's base ids are known: does any location's file name match a changed file's? */
  private mayBeRelevant(result: SarifResult): boolean {
    for (const location of locationsOf(result)) {
      const artifact = location.physicalLocation?.artifactLocation;
      if (!artifact) continue;
      if (artifact.uri === undefined) return true; // named by artifact index: decide later
      if (this.byBaseName.has(baseName(artifact.uri))) return true;
    }
    return false;
  }

  private finishRun(index: number): void {
    const run = this.runs.get(index)!;
    if (!run.tool) throw new SarifProblem(`runs[${index}].tool: missing (every run names the tool that produced it)`);
    const context: UriContext = {
      repoRoot: this.options.repoRoot,
      sourceRoot: this.options.sourceRoot ?? this.options.repoRoot,
      baseIds: run.baseIds,
    };
    for (const result of run.pending) {
      const issue = this.toIssue(result, run, context);
      if (issue) this.issues.push(issue);
    }
    run.pending = [];
  }

  private pathOf(location: SarifLocation, run: RunState, context: UriContext): string | null {
    let artifact = location.physicalLocation?.artifactLocation;
    if (artifact && artifact.uri === undefined && artifact.index !== undefined && artifact.index >= 0) {
      artifact = run.artifacts[artifact.index]?.location;
    }
    return repoPathOf(artifact, context);
  }

  private isInScope(path: string | null, location: SarifLocation): boolean {
    if (path === null) return false;
    const lines = this.options.scope.files.get(path);
    if (!lines) return false;
    if (this.options.scope.mode === 'changed_files') return true;
    const region = location.physicalLocation?.region;
    if (!region?.startLine) return true; // a file-level result on a changed file
    return overlaps(region.startLine, region.endLine ?? region.startLine, lines);
  }

  private toIssue(result: SarifResult, run: RunState, context: UriContext): SarifIssue | null {
    const located = locationsOf(result).map((location) => ({ location, path: this.pathOf(location, run, context) }));
    if (!located.some(({ location, path }) => this.isInScope(path, location))) return null;
    // Report at the primary location when it is in the repository, so the message reads as the producer meant it.
    const primary = located[0]?.path
      ? located[0]
      : located.find(({ location, path }) => this.isInScope(path, location))!;
    const region = primary.location.physicalLocation?.region;
    const { id, rule } = ruleOf(result, run);
    const securitySeverity = securitySeverityOf(rule);
    const message =
      fillArguments(result.message.text ?? result.message.markdown ?? '', result.message.arguments) ||
      rule?.shortDescription?.text ||
      id;
    const issue: SarifIssue = {
      producer: this.options.producer,
      toolName: run.tool!.driver.name,
      ruleId: id,
      level: result.level ?? rule?.defaultConfiguration?.level ?? 'warning',
      message,
      path: primary.path!,
      imported: importedSarifOf({
        result,
        ruleId: id,
        rule,
        tool: run.tool!,
        pathOf: (location) => this.pathOf(location, run, context),
      }),
    };
    if (securitySeverity !== undefined) issue.securitySeverity = securitySeverity;
    if (region?.startLine) {
      issue.startLine = region.startLine;
      if (region.endLine && region.endLine !== region.startLine) issue.endLine = region.endLine;
      if (region.startColumn) issue.startColumn = region.startColumn;
    }
    const fingerprint =
      result.partialFingerprints?.primaryLocationLineHash ??
      Object.values(result.partialFingerprints ?? {})[0] ??
      Object.values(result.fingerprints ?? {})[0];
    if (fingerprint !== undefined) issue.fingerprint = fingerprint;
    const ruleTitle = rule?.shortDescription?.text ?? rule?.name;
    if (ruleTitle) issue.ruleTitle = ruleTitle;
    const help = rule?.help?.markdown ?? rule?.help?.text ?? rule?.fullDescription?.text;
    if (help) issue.help = help;
    if (rule?.helpUri) issue.helpUri = rule.helpUri;
    if (rule?.properties?.tags?.length) issue.tags = rule.properties.tags;
    const steps = result.codeFlows?.[0]?.threadFlows[0]?.locations ?? [];
    if (steps.length > 0) {
      issue.flow = steps.slice(0, MAX_FLOW_STEPS).map(({ location }) => {
        const step: FlowStep = { path: location ? this.pathOf(location, run, context) : null };
        const line = location?.physicalLocation?.region?.startLine;
        if (line) step.line = line;
        const text = location?.message?.text;
        if (text) step.message = text;
        return step;
      });
    }
    return issue;
  }
}

/** Reads a SARIF log from a buffer or string (tests, small in-memory logs). */
export function readSarifText(text: string | Buffer, options: ReadSarifOptions): ReadSarifOutcome {
  const reader = new SarifReader(options);
  try {
    reader.write(typeof text === 'string' ? Buffer.from(text) : text);
  } catch (error) {
    if (error instanceof SarifProblem) return { ok: false, problem: reader.describe(error.message) };
    throw error;
  }
  return reader.finish();
}

/**
 * Streams a SARIF log from disk: memory stays at one result at a time plus the results that are about the change,
 * whatever the size of the file.
 */
export async function readSarifFile(file: string, options: ReadSarifOptions): Promise<ReadSarifOutcome> {
  const reader = new SarifReader(options);
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) reader.write(chunk as Buffer);
  } catch (error) {
    if (error instanceof SarifProblem) return { ok: false, problem: reader.describe(error.message) };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return { ok: false, problem: reader.describe('no such file (the producer did not write it)') };
    return { ok: false, problem: reader.describe(`could not read: ${errorMessage(error)}`) };
  }
  return reader.finish();
}
