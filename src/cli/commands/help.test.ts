import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { registrationsFor } from './by-name.js';

/** Every command's register functions: what a command line that names no command loads. */
const commands = await registrationsFor([]);

/** Every leaf command of the real CLI, with its full name (`hook stop`). */
function leafCommands(): { name: string; command: Command }[] {
  const program = new Command('tollgate');
  for (const register of commands) register(program);
  const leaves: { name: string; command: Command }[] = [];
  const walk = (command: Command, prefix: string[]) => {
    for (const child of command.commands) {
      const path = [...prefix, child.name()];
      if (child.commands.length === 0) leaves.push({ name: path.join(' '), command: child });
      else walk(child, path);
    }
  };
  walk(program, []);
  return leaves;
}

function helpText(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

/** Splits an example line the way a shell would for the simple quoting examples use. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

const leaves = leafCommands();

describe('every command documents itself', () => {
  test('the CLI has the commands the README lists', () => {
    expect(leaves.map((leaf) => leaf.name)).toEqual(
      expect.arrayContaining([
        'run',
        'log',
        'waive',
        'scan',
        'mcp',
        'hook stop',
        'hook pre-commit',
        'install',
        'init',
        'config show',
      ]),
    );
  });

  test.each(leaves.map((leaf) => [leaf.name, leaf.command] as const))(
    '`tollgate %s --help` has a summary and an example',
    (name, command) => {
      const text = helpText(command);
      expect(command.summary() || command.description(), `${name}: add .summary()`).not.toBe('');
      expect(text, `${name}: add an "Example:" line with addHelpText('after', …)`).toMatch(/\$ tollgate /);
    },
  );

  test.each(leaves.map((leaf) => [leaf.name, leaf.command] as const))(
    'every example of `tollgate %s` uses only its own flags',
    (name, command) => {
      const examples = helpText(command)
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.startsWith(`$ tollgate ${name}`));
      for (const example of examples) {
        const words = shellWords(example.slice(`$ tollgate ${name}`.length));
        const { unknown } = command.parseOptions(words);
        expect(unknown, `${example}: unknown flag`).toEqual([]);
      }
    },
  );
});
