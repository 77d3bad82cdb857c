import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import type { z } from 'zod';
import { TollgateError } from '../../../core/errors.js';
import { compareText } from '../../../core/text-order.js';
import { DONE_FILE } from './sweep-done.js';
import {
  ERROR_FILE,
  RESULT_FILE,
  type SweepError,
  type SweepResult,
  sweepErrorSchema,
  sweepResultSchema,
  totalUsage,
} from './sweep-result.js';

/** Every shard's results as one: decided alerts, alerts that failed, alerts a killed shard left unfinished. */
export interface MergedSweep {
  sources: string[];
  results: SweepResult[];
  errors: SweepError[];
  /** Alert folders without done.json and without error.json: a shard stopped while deciding them. */
  unfinished: Array<{ repo: string; number: number }>;
  totals: Record<string, number>;
  usage: SweepResult['usage'];
}

interface Found {
  source: string;
  repo: string;
  number: number;
  dir: string;
}

/**
 * `tollgate alerts merge DIR…`: reads `<dir>/<owner>/<repo>/<number>/` of every shard. An alert counts as decided
 * only with done.json (written last) and a valid result.json; an alert present in two shard folders is an error
 * naming it, since no two shards may ever take the same alert.
 */
export async function mergeSweeps(dirs: readonly string[], cwd: string): Promise<MergedSweep> {
  if (dirs.length === 0) throw new TollgateError('usage', 'alerts merge: give at least one shard folder');
  const sources = dirs.map((dir) => resolve(cwd, dir));
  const found = (await Promise.all(sources.map((source) => alertFolders(source)))).flat();
  const seen = new Map<string, string>();
  for (const alert of found) {
    const key = `${alert.repo}#${alert.number}`;
    const other = seen.get(key);
    if (other !== undefined)
      throw new TollgateError(
        'usage',
        `alerts merge: alert ${key} is in two shard folders (${other} and ${alert.source}); each alert belongs to one shard`,
      );
    seen.set(key, alert.source);
  }
  const limit = pLimit(64);
  const read = await Promise.all(found.map((alert) => limit(() => readAlert(alert))));
  const results = read.flatMap((item) => (item.kind === 'result' ? [item.value] : []));
  const errors = read.flatMap((item) => (item.kind === 'error' ? [item.value] : []));
  const unfinished = read.flatMap((item) => (item.kind === 'unfinished' ? [item.value] : []));
  const order = (a: { repo: string; number: number }, b: { repo: string; number: number }) =>
    compareText(a.repo, b.repo) || a.number - b.number;
  const totals: Record<string, number> = {};
  for (const result of results) totals[result.verdict] = (totals[result.verdict] ?? 0) + 1;
  return {
    sources,
    results: results.sort(order),
    errors: errors.sort(order),
    unfinished: unfinished.sort(order),
    totals,
    usage: totalUsage(results.map((result) => result.usage)),
  };
}

async function alertFolders(source: string): Promise<Found[]> {
  const owners = await subdirs(source, true);
  const found: Found[] = [];
  for (const owner of owners) {
    for (const repo of await subdirs(join(source, owner))) {
      for (const number of await subdirs(join(source, owner, repo))) {
        if (/^[1-9]\d*$/.test(number))
          found.push({
            source,
            repo: `${owner}/${repo}`,
            number: Number(number),
            dir: join(source, owner, repo, number),
          });
      }
    }
  }
  return found;
}

async function subdirs(dir: string, top = false): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name);
  } catch (error) {
    if (top)
      throw new TollgateError('usage', `alerts merge: ${dir}: not a readable folder (${(error as Error).message})`);
    return [];
  }
}

type Read =
  | { kind: 'result'; value: SweepResult }
  | { kind: 'error'; value: SweepError }
  | { kind: 'unfinished'; value: { repo: string; number: number } };

async function readAlert(alert: Found): Promise<Read> {
  const done = await readText(join(alert.dir, DONE_FILE));
  if (done !== null) {
    const path = join(alert.dir, RESULT_FILE);
    const result = parse(sweepResultSchema, await readText(path), path);
    if (result.repo !== alert.repo || result.number !== alert.number)
      throw new TollgateError(
        'usage',
        `alerts merge: ${path}: names ${result.repo}#${result.number}, not the alert of its folder`,
      );
    return { kind: 'result', value: result };
  }
  const error = await readText(join(alert.dir, ERROR_FILE));
  if (error !== null) return { kind: 'error', value: parse(sweepErrorSchema, error, join(alert.dir, ERROR_FILE)) };
  return { kind: 'unfinished', value: { repo: alert.repo, number: alert.number } };
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

function parse<T extends z.ZodTypeAny>(schema: T, text: string | null, path: string): z.output<T> {
  let value: unknown;
  try {
    value = text === null ? undefined : JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TollgateError(
      'usage',
      `alerts merge: ${path}: ${text === null ? 'missing beside done.json' : `invalid (${issue?.path.join('.') || 'root'}: ${issue?.message})`}`,
    );
  }
  return parsed.data;
}
