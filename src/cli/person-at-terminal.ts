import { createInterface } from 'node:readline/promises';
import { agentMarkers } from '../agents/agent-environment.js';
import { TollgateError } from '../core/errors.js';
import type { Reader } from '../core/reader.js';

/**
 * Who reads this command's output: a person when no agent's marker is set and standard input is a terminal (the
 * test `refuseUnlessPerson` applies), else an agent. Only a person's text names the commands a person must run.
 */
export function readerOf(env: NodeJS.ProcessEnv): Reader {
  return agentMarkers(env).length === 0 && process.stdin.isTTY ? 'person' : 'agent';
}

/**
 * Who would take a decision only a person may take: a person at their terminal, or not (an agent's marker is in the
 * environment, or stdin is no terminal). No local check proves a person; this keeps an agent that follows its
 * instructions from taking the decision by accident.
 */
export type AtTerminal = { kind: 'person' } | { kind: 'agent'; markers: string[] } | { kind: 'no-terminal' };

export function whoIsAtTerminal(env: NodeJS.ProcessEnv): AtTerminal {
  const markers = agentMarkers(env);
  if (markers.length > 0) return { kind: 'agent', markers };
  return process.stdin.isTTY ? { kind: 'person' } : { kind: 'no-terminal' };
}

/**
 * A decision only a person may take (`policy accept`; the same rule as `waive --human`, docs/waivers.md): refused
 * unless `whoIsAtTerminal` finds a person. The message names what was seen and nothing an agent could type to get
 * past it.
 */
export function refuseUnlessPerson(what: string, env: NodeJS.ProcessEnv): void {
  const who = whoIsAtTerminal(env);
  if (who.kind === 'agent') {
    throw new TollgateError(
      'usage',
      `${what}: refused: this runs under a coding agent (${who.markers.join(', ')} is set); a person decides this in their own terminal`,
    );
  }
  if (who.kind === 'no-terminal') {
    throw new TollgateError(
      'usage',
      `${what}: refused: standard input is not a terminal; a person decides this interactively`,
    );
  }
}

/** Asks on the terminal; true when the person typed exactly `expected`. */
export async function typedOnTerminal(question: string, expected: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return (await prompt.question(question)).trim() === expected;
  } finally {
    prompt.close();
  }
}
