import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const showFlags = z.object({ json: z.boolean().default(false) });

export function registerConfig(program: Command, io: () => CommandIo = processIo): void {
  const config = program
    .command('config')
    .summary('print the effective config or its JSON Schema')
    .description(
      'Inspect tollgate.config.yaml: `show` prints every setting with the place its value came from, `schema` prints the JSON Schema of the file (for editor completion and validation).',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate config show
  $ tollgate config schema > tollgate.schema.json`,
    );

  config
    .command('show')
    .summary('print the effective config and where each value came from')
    .description(
      'Prints the effective config (the file, then TOLLGATE_USE_<NAME> switches, over the defaults) as YAML with a comment after each setting: `# default`, `# from file` or `# env TOLLGATE_USE_CHECKS`. Durations are shown as written ("10m").',
    )
    .option(
      '--json',
      'print JSON instead: { "<dotted.path>": { "value": …, "source": "default" | "file" | "env" | "flag" } }',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate config show
  $ TOLLGATE_USE_CHECKS=0 tollgate config show --json`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(showFlags, rawFlags);
      const { cwd, env, write } = io();
      const [{ renderConfigJson, renderConfigText, lookUpRegistries }, { openProject }, { redactSecrets }] =
        await Promise.all([
          import('../../core/config/index.js'),
          import('../../core/config/open-project.js'),
          import('../../secrets/redact.js'),
        ]);
      const registries = await lookUpRegistries();
      const { loaded } = await openProject({ cwd, env, registries });
      const pending = loaded.policy?.pending().map((file) => file.path) ?? [];
      if (pending.length > 0) {
        process.stderr.write(
          `tollgate: shown is the policy at the base commit; edits pending a person's review: ${pending.join(', ')} (tollgate policy status)\n`,
        );
      }
      const text = flags.json ? renderConfigJson(loaded, registries) : renderConfigText(loaded, registries);
      // Values under credential-named keys are already `<redacted>`; a token written inline (a check's `run:`
      // line) is masked by the secret scanner, as in every other output.
      write(redactSecrets(text, { path: flags.json ? 'config-show.json' : 'config-show.yaml' }));
    });

  config
    .command('schema')
    .summary('print the JSON Schema of tollgate.config.yaml')
    .description(
      'Prints the JSON Schema (draft 2020-12) of the config file, derived from the validators installed. Point your editor at it, e.g. with a `# yaml-language-server: $schema=tollgate.schema.json` first line.',
    )
    .addHelpText(
      'after',
      `
Example:
  $ tollgate config schema > tollgate.schema.json`,
    )
    .action(async () => {
      const { write } = io();
      const { renderConfigJsonSchema, lookUpRegistries } = await import('../../core/config/index.js');
      write(renderConfigJsonSchema(await lookUpRegistries()));
    });
}
