import type { Command } from 'commander';
import { z } from 'zod';
import { collectList, parseFlags } from '../flags.js';

const checkFlags = z.object({
  all: z.boolean().default(false),
  format: z.enum(['markdown', 'json']).default('markdown'),
  source: z.array(z.string()).default([]),
  offlineDir: z.string().min(1).optional(),
  base: z.string().min(1).optional(),
});

export function registerAdvisories(program: Command): void {
  const advisories = program
    .command('advisories')
    .summary('check dependencies against advisory databases')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate advisories check npm:lodash@4.17.15
  $ tollgate advisories check --all`,
    );
  advisories
    .command('check')
    .summary('check packages, or the dependencies the change added, for known vulnerabilities')
    .description(
      'With packages (ecosystem:name@version), checks exactly those: use it before adding a dependency. Without, checks the dependencies the change set added or upgraded in lockfiles and manifests (--all: every locked dependency). Ecosystems: npm, pypi, go, cargo, rubygems, packagist, maven, nuget. Exit code: 0 nothing found and every source answered, 1 vulnerabilities found or a source could not answer, 2 bad usage or config.',
    )
    .argument('[packages...]', 'packages as ecosystem:name@version, e.g. npm:lodash@4.17.15')
    .option('--all', 'without packages: check every locked dependency, not only new or changed ones')
    .option('--format <format>', 'output: markdown or json (default markdown)')
    .option(
      '--source <names>',
      'advisory sources: osv, github, offline (comma-separated; default: config advisories.sources)',
      collectList,
    )
    .option('--offline-dir <dir>', 'folder of OSV exports (<Ecosystem>/all.zip) for --source offline')
    .option('--base <rev>', 'without packages: diff base (default: as for tollgate run)')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate advisories check npm:lodash@4.17.15 pypi:django@3.2.0
  $ tollgate advisories check go:golang.org/x/net@v0.6.0 cargo:smallvec@1.6.0 --format json
  $ tollgate advisories check --source offline --offline-dir ~/osv npm:minimist@1.2.0
  $ tollgate advisories check --all`,
    )
    .action(async (packages: string[], rawFlags: unknown) => {
      const flags = parseFlags(checkFlags, rawFlags);
      const { advisoriesCheck } = await import('../../validators/advisories/check-command.js');
      process.exitCode = await advisoriesCheck({ packages, ...flags });
    });
}
