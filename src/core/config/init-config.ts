import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TollgateError } from '../errors.js';
import type { DetectedCheck } from './detect-checks/detect-checks.js';
import { templateWithChecks } from './detect-checks/render-checks.js';
import { CONFIG_FILE_NAMES, locateConfigFile } from './locate-file.js';
import { readConfigTemplate } from './template.js';

export interface WriteConfigTemplateOptions {
  repoRoot: string;
  /** Overwrite an existing config file. */
  force?: boolean;
  /** Where the template comes from (tests); default: the package's docs/config.md. */
  templateUrl?: URL;
  /** Checks to write active under `checks:` (what `tollgate init` found in the project); default none. */
  checks?: readonly DetectedCheck[];
}

export interface WrittenConfig {
  /** Repo-relative name of the file written. */
  file: string;
  overwritten: boolean;
  /** The exact text written. */
  text: string;
}

/**
 * `tollgate init`: writes the commented default config (with the checks found in the project, if any) at the repository root, or over the existing config file
 * (whichever of the two names it has) with `force`. Written to a temporary file and renamed, so a reader never sees
 * half of it.
 */
export async function writeConfigTemplate(options: WriteConfigTemplateOptions): Promise<WrittenConfig> {
  const existing = await locateConfigFile({ repoRoot: options.repoRoot, cwd: options.repoRoot, env: {} });
  if (existing && !options.force) {
    throw new TollgateError('usage', `${existing.label} already exists; rerun with --force to overwrite it`);
  }
  const template = templateWithChecks(await readConfigTemplate(options.templateUrl), options.checks ?? []);
  const file = existing?.label ?? CONFIG_FILE_NAMES[0];
  const target = join(options.repoRoot, file);
  const temporary = join(options.repoRoot, `.${file}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, template, { flag: 'wx' });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new TollgateError('io', `cannot write ${file} (${code})`);
  }
  return { file, overwritten: existing !== null, text: template };
}
