import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../../core/errors.js';
import { type Ecosystem, normalizePackageName, type PackageVersion } from '../ecosystems.js';
import { matchRecord } from '../osv/affected.js';
import { type OsvRecord, osvRecordSchema } from '../osv/osv-record.js';
import { ZipError, zipEntries } from './read-zip.js';
import type { AdvisorySource } from './source.js';

/**
 * An offline copy of the OSV database for air-gapped runs: `<dir>/<Ecosystem>/all.zip` as downloaded from
 * https://osv-vulnerabilities.storage.googleapis.com/<Ecosystem>/all.zip (the layout osv-scanner's offline cache
 * uses), or the same archive unpacked into `<dir>/<Ecosystem>/*.json`. Nothing is sent anywhere; matching is ours.
 */
type Loaded =
  | { kind: 'ok'; records: OsvRecord[] }
  | { kind: 'error'; message: string }
  /** The database has no export for this ecosystem: its packages were not checked (never "no advisory"). */
  | { kind: 'unavailable'; message: string };

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Keeps only records about the asked-for names, so a 200,000-record export never sits in memory whole. */
function keepRelevant(
  text: string,
  names: ReadonlySet<string>,
  ecosystem: Ecosystem,
  where: string,
  into: OsvRecord[],
): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `${where}: not valid JSON`;
  }
  const parsed = osvRecordSchema.safeParse(json);
  if (!parsed.success)
    return `${where}: not an OSV record (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`;
  if (
    parsed.data.affected.some(
      (affected) => affected.package && names.has(normalizePackageName(ecosystem, affected.package.name)),
    )
  ) {
    into.push(parsed.data);
  }
  return null;
}

async function loadEcosystem(dir: string, ecosystem: Ecosystem, names: ReadonlySet<string>): Promise<Loaded> {
  const folder = join(dir, ecosystem);
  const zip = join(folder, 'all.zip');
  const records: OsvRecord[] = [];
  try {
    if (await exists(zip)) {
      for (const entry of zipEntries(await readFile(zip))) {
        if (!entry.name.endsWith('.json')) continue;
        const problem = keepRelevant(
          entry.read().toString('utf8'),
          names,
          ecosystem,
          `${ecosystem}/all.zip:${entry.name}`,
          records,
        );
        if (problem) return { kind: 'error', message: `offline: ${problem}` };
      }
      return { kind: 'ok', records };
    }
    const files = (await exists(folder)) ? (await readdir(folder)).filter((name) => name.endsWith('.json')) : [];
    if (files.length === 0) {
      return {
        kind: 'unavailable',
        message: `offline: no ${ecosystem} export in ${dir} (expected ${ecosystem}/all.zip or ${ecosystem}/*.json from https://osv-vulnerabilities.storage.googleapis.com/${encodeURIComponent(ecosystem)}/all.zip); ${ecosystem} packages were not checked`,
      };
    }
    for (const name of files.sort()) {
      const problem = keepRelevant(
        await readFile(join(folder, name), 'utf8'),
        names,
        ecosystem,
        `${ecosystem}/${name}`,
        records,
      );
      if (problem) return { kind: 'error', message: `offline: ${problem}` };
    }
    return { kind: 'ok', records };
  } catch (error) {
    if (error instanceof ZipError) return { kind: 'error', message: `offline: ${ecosystem}/all.zip: ${error.message}` };
    return { kind: 'error', message: `offline: cannot read ${folder}: ${errorMessage(error)}` };
  }
}

export function createOfflineSource(options: { dir: string }): AdvisorySource {
  return {
    name: 'offline',
    async query(packages) {
      if (!(await exists(options.dir))) {
        return {
          kind: 'unavailable',
          message: `offline: no OSV database at ${options.dir} (advisories.offline.dir); download <Ecosystem>/all.zip from https://osv-vulnerabilities.storage.googleapis.com/`,
        };
      }
      const byEcosystem = new Map<Ecosystem, Set<string>>();
      for (const pkg of packages) {
        const names = byEcosystem.get(pkg.ecosystem) ?? new Set<string>();
        names.add(normalizePackageName(pkg.ecosystem, pkg.name));
        byEcosystem.set(pkg.ecosystem, names);
      }
      const records = new Map<Ecosystem, OsvRecord[]>();
      for (const [ecosystem, names] of byEcosystem) {
        const loaded = await loadEcosystem(options.dir, ecosystem, names);
        if (loaded.kind !== 'ok') return loaded;
        records.set(ecosystem, loaded.records);
      }
      return {
        kind: 'ok',
        records: packages.map((pkg: PackageVersion) =>
          (records.get(pkg.ecosystem) ?? []).filter((record) => matchRecord(record, pkg)),
        ),
      };
    },
  };
}
