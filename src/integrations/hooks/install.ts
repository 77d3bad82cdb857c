import { join } from 'node:path';
import { useVariableFor } from '../../core/config/env-overrides.js';
import { findRepoRoot } from '../../core/config/repo-root.js';
import { TollgateError } from '../../core/errors.js';
import {
  backUp,
  displayPath,
  missingDirs,
  readTextOrEmpty,
  removeConfigFile,
  removeEmptyDirs,
  writeConfigFile,
} from './config-files.js';
import type { InstallCommands, InstallScope, InstallStep, ScopeRoots } from './hook-agent.js';
import type { HookAgentName } from './index.js';
import { hookAgent } from './index.js';
import { type InstallRecord, readManifest, tollgateHome, writeManifest } from './install-manifest.js';
import { afterInstallSteps } from './install-steps.js';
import {
  addHook,
  addJsonEntry,
  raiseHookTimeout,
  readJsonText,
  removeHook,
  removeJsonEntry,
} from './json-config-file.js';
import { appendBlock, hasTable, readToml, removeBlock, tomlBlock } from './toml-config-file.js';

export interface InstallOptions {
  agent: HookAgentName;
  scope: InstallScope;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The home whose user-level files are edited (tests pass a temp one). */
  home: string;
  /** How agents start tollgate; default `tollgate` (must be on the agent's PATH). */
  bin?: string;
  /** How long to wait for `codex app-server`. */
  codexTimeoutMs?: number;
  /** Lines while something slow is under way (the CLI: stderr). */
  progress?: (line: string) => void;
}

/**
 * The files were written (and recorded for `uninstall`), but the agent will not run the hook: `lines` is the report of
 * what was done, the message what was not and the exact next step. Exit code 5.
 */
export class InstallNotInEffectError extends TollgateError {
  constructor(
    readonly lines: readonly string[],
    problems: readonly string[],
  ) {
    super('not_in_effect', problems[0]!, problems.slice(1));
    this.name = 'InstallNotInEffectError';
  }
}

/** What the agent's config should run. */
export async function installCommands(agent: HookAgentName, bin = 'tollgate'): Promise<InstallCommands> {
  const [command, ...rest] = bin.trim().split(/\s+/);
  return {
    hookCommand: `${bin.trim()} hook stop --agent ${agent}`,
    mcpCommand: command!,
    mcpArgs: [...rest, 'mcp'],
    validatorSwitches: await validatorSwitches(),
  };
}

/** The validator registry is the largest module graph in tollgate: loaded only by the commands that need it. */
async function validatorSwitches(): Promise<string[]> {
  const { validators } = await import('../../validators/index.js');
  return validators.flatMap((tool) => [tool.name, ...(tool.aliases ?? [])].map(useVariableFor));
}

async function scopeRoots(options: Pick<InstallOptions, 'scope' | 'cwd' | 'env' | 'home'>): Promise<ScopeRoots> {
  if (options.scope === 'user') {
    const repoRoot = await findRepoRoot(options.cwd, options.env).catch(() => null);
    return { repoRoot, home: options.home };
  }
  try {
    return { repoRoot: await findRepoRoot(options.cwd, options.env), home: options.home };
  } catch {
    throw new TollgateError(
      'not_a_repo',
      `--project: ${options.cwd} is not inside a git work tree; run it in your project, or use --user`,
    );
  }
}

/** Writes each changed file once per command, backing it up before its first change. */
class FileWriter {
  private readonly backedUp = new Set<string>();
  /** Files this command created: a second edit of one has nothing of the user's to back up. */
  private readonly created = new Set<string>();
  readonly lines: string[] = [];
  constructor(
    private readonly backupsDir: string,
    private readonly stamp: string,
    readonly roots: ScopeRoots,
  ) {}
  show(path: string): string {
    return displayPath(path, this.roots);
  }
  /** Whether the file was there before this command (it may exist now because an earlier edit created it). */
  existedBefore(path: string, existsNow: boolean): boolean {
    return existsNow && !this.created.has(path);
  }
  async write(path: string, text: string, existed: boolean): Promise<void> {
    if (!existed) this.created.add(path);
    if (existed && !this.backedUp.has(path) && !this.created.has(path)) {
      const copy = await backUp(path, this.backupsDir, this.stamp);
      this.backedUp.add(path);
      this.lines.push(
        `backed up ${this.show(path)} to ${displayPath(copy, { repoRoot: null, home: this.roots.home })}`,
      );
    }
    await writeConfigFile(path, text);
  }
}

function stampOf(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\..*/, 'Z');
}

/**
 * `tollgate install <agent>`: merges the stop hook and the MCP server entry into the agent's config files. Never
 * overwrites: an entry with the same command (or an MCP server already named `tollgate`) is left as it is. Every
 * file is backed up before its first change, and every addition is recorded for `tollgate uninstall`.
 */
export async function installAgent(options: InstallOptions): Promise<string[]> {
  const agent = hookAgent(options.agent);
  const roots = await scopeRoots(options);
  const commands = await installCommands(agent.name, options.bin);
  const { edits, notes } = agent.configEdits(options.scope, roots, commands);
  const home = tollgateHome(options.env, options.home);
  const writer = new FileWriter(join(home, 'backups'), stampOf(new Date()), roots);
  const manifest = readManifest(options.env, options.home);
  const prefix = `${agent.name} (${options.scope})`;

  for (const edit of edits) {
    const read = await readTextOrEmpty(edit.file);
    const { text } = read;
    const existed = writer.existedBefore(edit.file, read.existed);
    const label = writer.show(edit.file);
    const base = {
      agent: agent.name,
      scope: options.scope,
      file: edit.file,
      createdFile: !existed,
      createdDirs: missingDirs(edit.file, roots.repoRoot && options.scope === 'project' ? roots.repoRoot : roots.home),
    };
    switch (edit.kind) {
      case 'hook': {
        const change = addHook(text, edit, label);
        if (!change) {
          const raised = raiseHookTimeout(text, edit, label);
          if (raised) await writer.write(edit.file, raised.text, existed);
          const kept = raised
            ? `raised its timeout to ${agent.hookTimeoutMs / 1000} s (the hook answers just inside it)`
            : 'left as is';
          writer.lines.push(`${prefix}: ${label} already runs \`${commands.hookCommand}\`; ${kept}`);
          break;
        }
        await writer.write(edit.file, change.text, existed);
        manifest.push({
          ...base,
          kind: 'hook',
          layout: edit.layout,
          eventsPath: edit.eventsPath,
          event: edit.event,
          command: commands.hookCommand,
          createdPaths: change.createdPaths,
        });
        writer.lines.push(`${prefix}: added the ${edit.event} hook \`${commands.hookCommand}\` to ${label}`);
        break;
      }
      case 'json-mcp': {
        const change = addJsonEntry(text, edit.path, edit.value, label);
        if (!change) {
          writer.lines.push(`${prefix}: ${label} already has an MCP server named "${edit.path.at(-1)}"; left as is`);
          break;
        }
        await writer.write(edit.file, change.text, existed);
        manifest.push({ ...base, kind: 'json-mcp', path: edit.path, createdPaths: change.createdPaths });
        writer.lines.push(`${prefix}: added the tollgate MCP server to ${label}`);
        break;
      }
      case 'toml-mcp': {
        readToml(text, label);
        if (hasTable(text, edit.table, label)) {
          writer.lines.push(`${prefix}: ${label} already has [${edit.table.join('.')}]; left as is`);
          break;
        }
        const block = tomlBlock(edit.table, edit.values);
        await writer.write(edit.file, appendBlock(text, block, label), existed);
        manifest.push({ ...base, kind: 'toml-block', what: 'the tollgate MCP server', block });
        writer.lines.push(`${prefix}: added the tollgate MCP server to ${label}`);
        break;
      }
    }
  }
  const notInEffect: string[] = [];
  const step = installStep(options, writer, prefix, { roots, commands, edits, manifest }, notInEffect);
  await afterInstallSteps[agent.name]?.(step);
  await writeManifest(options.env, options.home, manifest);
  const lines = [...writer.lines, ...notes.map((note) => `${prefix}: note: ${note}`)];
  if (notInEffect.length > 0) throw new InstallNotInEffectError(lines, notInEffect);
  return lines;
}

/** What an agent's own step after install gets (install-steps.ts). */
function installStep(
  options: InstallOptions,
  writer: FileWriter,
  prefix: string,
  written: Pick<InstallStep, 'roots' | 'commands' | 'edits' | 'manifest'>,
  /** Collects what did not take effect. */
  notInEffect: string[],
): InstallStep {
  return {
    ...written,
    scope: options.scope,
    env: options.env,
    home: options.home,
    ...(options.codexTimeoutMs ? { timeoutMs: options.codexTimeoutMs } : {}),
    show: (path) => writer.show(path),
    write: (path, text, existed) => writer.write(path, text, existed),
    report: (line) => void writer.lines.push(`${prefix}: ${line}`),
    notInEffect: (line) => void notInEffect.push(`${prefix}: ${line}`),
    progress: options.progress ?? (() => {}),
  };
}

/** `tollgate uninstall <agent>`: removes exactly what `install` recorded for this agent and scope. */
export async function uninstallAgent(options: InstallOptions): Promise<string[]> {
  const agent = hookAgent(options.agent);
  const roots = await scopeRoots(options);
  const home = tollgateHome(options.env, options.home);
  const writer = new FileWriter(join(home, 'backups'), stampOf(new Date()), roots);
  const prefix = `${agent.name} (${options.scope})`;
  const manifest = readManifest(options.env, options.home);
  const scopeFiles = new Set(
    agent
      .configEdits(options.scope, roots, await installCommands(agent.name, options.bin))
      .edits.map((edit) => edit.file),
  );
  const mine = (record: InstallRecord) =>
    record.agent === agent.name &&
    record.scope === options.scope &&
    (scopeFiles.has(record.file) || (record.kind === 'toml-block' && record.what.startsWith('trust')));
  const kept = manifest.filter((record) => !mine(record));
  const records = manifest.filter(mine).reverse();
  if (records.length === 0) {
    writer.lines.push(
      `${prefix}: nothing recorded by \`tollgate install ${agent.name}${options.scope === 'user' ? ' --user' : ''}\`; nothing removed`,
    );
  }
  const removedFiles: InstallRecord[] = [];
  for (const record of records) {
    const { text, existed } = await readTextOrEmpty(record.file);
    const label = writer.show(record.file);
    if (!existed) {
      writer.lines.push(`${prefix}: ${label} is gone; nothing to remove`);
      continue;
    }
    const next = undo(record, text, label);
    if (next === null) {
      writer.lines.push(`${prefix}: ${label} no longer has what tollgate added (changed by hand?); left as is`);
      continue;
    }
    if (record.createdFile && isEffectivelyEmpty(next, record)) {
      await writer.write(record.file, text, true); // the backup
      await removeConfigFile(record.file);
      removedFiles.push(record);
      writer.lines.push(`${prefix}: removed ${label} (tollgate created it)`);
    } else {
      await writer.write(record.file, next, true);
      writer.lines.push(`${prefix}: removed ${describeRecord(record)} from ${label}`);
    }
  }
  const stillUsed = new Set(kept.flatMap((record) => record.createdDirs));
  const emptied = await removeEmptyDirs(
    removedFiles.flatMap((record) => record.createdDirs).filter((dir) => !stillUsed.has(dir)),
  );
  for (const dir of emptied)
    writer.lines.push(`${prefix}: removed the empty folder ${writer.show(dir)} (tollgate created it)`);
  await writeManifest(options.env, options.home, kept);
  return writer.lines;
}

function undo(record: InstallRecord, text: string, label: string): string | null {
  switch (record.kind) {
    case 'hook':
      return removeHook(text, record, record.command, record.createdPaths, label);
    case 'json-mcp':
      return removeJsonEntry(text, record.path, record.createdPaths, label);
    case 'toml-block':
      return removeBlock(text, record.block, label);
  }
}

function describeRecord(record: InstallRecord): string {
  switch (record.kind) {
    case 'hook':
      return `the ${record.event} hook \`${record.command}\``;
    case 'json-mcp':
      return 'the tollgate MCP server';
    case 'toml-block':
      return record.what;
  }
}

/** A file we created holds nothing but what we put in it (and Cursor's/Copilot's `version`). */
function isEffectivelyEmpty(text: string, record: InstallRecord): boolean {
  if (record.kind === 'toml-block') return text.trim() === '';
  const value = readJsonText(text, record.file);
  return Object.keys(value).every((key) => key === 'version');
}
