import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../test/support/temp-home.js';
import { ledgerFor, reapLeftoverGroups } from './process-ledger.js';

let root: string;
beforeEach(async () => {
  root = await tempDir('tollgate-ledger-');
});
afterEach(() => removeDir(root));

const alive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};
const ticksOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
};
/** A pid that is certainly gone: a process that has already exited. */
const deadPid = () => spawnSync('true').pid as number;

function leftover(pgid: number, startTicks: number | null) {
  mkdirSync(join(root, '.tollgate', 'children'), { recursive: true });
  const owner = deadPid();
  writeFileSync(
    join(root, '.tollgate', 'children', `${owner}.json`),
    JSON.stringify({ owner, groups: [{ pgid, startTicks, command: 'checks: sh' }] }),
  );
  return owner;
}

describe('process groups left by a killed run', () => {
  test('a group whose members all started after its recorded leader is stopped', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const pgid = child.pid as number;
    leftover(pgid, ticksOf(pgid));
    const { stopped, unsure } = await reapLeftoverGroups(root);
    expect(stopped).toEqual([expect.stringContaining(`checks: sh (process group ${pgid}`)]);
    expect(unsure).toEqual([]);
    expect(alive(pgid)).toBe(false);
  });

  test('a reused id (a member older than the recorded leader) is left alone and reported', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const pgid = child.pid as number;
    try {
      leftover(pgid, ticksOf(pgid) + 1_000_000);
      const { stopped, unsure } = await reapLeftoverGroups(root);
      expect(stopped).toEqual([]);
      expect(unsure).toEqual([`checks: sh (process group ${pgid})`]);
      expect(alive(pgid)).toBe(true);
    } finally {
      process.kill(-pgid, 'SIGKILL');
    }
  });

  test("a live owner's groups are never touched, and this process's own ledger is kept in step", async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const pgid = child.pid as number;
    try {
      const ledger = ledgerFor(root);
      ledger.started(pgid, 'checks: sh');
      const file = join(root, '.tollgate', 'children', `${process.pid}.json`);
      expect(JSON.parse(readFileSync(file, 'utf8')).groups).toEqual([
        { pgid, startTicks: ticksOf(pgid), command: 'checks: sh' },
      ]);
      expect(await reapLeftoverGroups(root)).toEqual({ stopped: [], unsure: [] });
      expect(alive(pgid)).toBe(true);
      ledger.ended(pgid);
      expect(() => readFileSync(file)).toThrow();
    } finally {
      process.kill(-pgid, 'SIGKILL');
    }
  });
});
