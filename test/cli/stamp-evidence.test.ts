import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

// The fast paths' stamp from saved evidence (src/core/run/stamp-evidence.ts) through the built CLI: once a passing
// answer is saved, a repeat `tollgate run` and the stop hook on a committed, unpushed change start no git at all,
// and any change to the tree (an edit that keeps size and mtime, a new or deleted file, a chmod), the refs, the repo's
// or the global config, the policy state or the evidence file itself sends the stamp back to git. Every git the CLI
// starts goes through a logging wrapper first on PATH.
const CONFIG = 'checks:\n  - name: ok\n    run: "true"\n';
const ANSWERED = 'tollgate: fast path: answered from the saved result';
const STOP_ANSWERED = 'tollgate: fast path: answered from the saved stamp';
const BUDGET = 240_000;

describe('a stamp from saved evidence (built CLI)', () => {
  let repo: TempRepo;
  let bin: string;
  let cacheDir: string;
  const gitLog = () => join(bin, 'git.log');
  beforeEach(async () => {
    bin = await tempDir('tollgate-git-wrapper-');
    cacheDir = await tempDir('tollgate-code-cache-');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${gitLog()}'\nexec '${realGit}' "$@"\n`, {
      mode: 0o755,
    });
    repo = await createTempRepo({
      files: { 'tollgate.config.yaml': CONFIG, 'app.txt': 'hello\n', 'src/a.txt': 'a\n' },
    });
    await repo.publish();
    await repo.write('feature.txt', 'a feature\n');
    await repo.commit('feature');
    // Past git's racy-clean window (a stamp of files seconds old is never saved); the index written after them.
    backdate();
    await settleThenRefresh();
  });
  afterEach(async () => {
    await repo.cleanup();
    await removeDir(bin);
    await removeDir(cacheDir);
  });

  const backdate = () => {
    const past = new Date(Date.now() - 60_000);
    for (const path of ['tollgate.config.yaml', 'app.txt', 'src/a.txt', 'feature.txt']) {
      utimesSync(join(repo.root, path), past, past);
    }
  };
  /**
   * The index rewritten a little after the files' ctimes: file times come from the kernel's coarse clock, and an
   * index written in the same tick as a file's change makes that entry racy (git reads the file; no evidence is kept).
   */
  const settleThenRefresh = async () => {
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    await repo.git('update-index', '--refresh');
  };
  const env = () => ({
    ...repo.env,
    PATH: `${bin}:${repo.env.PATH ?? process.env.PATH}`,
    TOLLGATE_TRACE_FAST_PATH: '1',
    TOLLGATE_CACHE_DIR: cacheDir,
  });
  /** Runs the CLI and says how many git processes it started. */
  const counted = async (args: string[], input?: string) => {
    rmSync(gitLog(), { force: true });
    const out = await runCli(args, { cwd: repo.root, env: env(), ...(input ? { input } : {}) });
    let gits = 0;
    try {
      gits = readFileSync(gitLog(), 'utf8').split('\n').filter(Boolean).length;
    } catch {}
    return { ...out, gits };
  };
  const run = () => counted(['run']);
  const stop = () =>
    counted(
      ['hook', 'stop', '--agent', 'claude'],
      JSON.stringify({ session_id: 'evidence', cwd: repo.root, hook_event_name: 'Stop' }),
    );
  /** Runs until one answered without git (a pass, a repeat that saves the stamp and the evidence, then answers). */
  const primed = async () => {
    const seen: Array<{ gits: number; trace: string }> = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const out = await run();
      seen.push({
        gits: out.gits,
        trace: out.stderr
          .split('\n')
          .filter((line) => line.includes('fast path'))
          .join(' / '),
      });
      expect(out.exitCode).toBe(0);
      if (out.stderr.includes(ANSWERED) && out.gits === 0) return;
    }
    const evidence = join(repo.root, '.tollgate', 'stamp-evidence.json');
    throw new Error(
      `the fast path never answered without git: ${JSON.stringify(seen)}; evidence ${existsSync(evidence)}`,
    );
  };
  /** The committed tree back, its files' mtimes in the past and the index refreshed after them. */
  const restore = async () => {
    // `git checkout` leaves a file whose stat matches its index entry, and an edit that keeps size and mtime within
    // the second git last refreshed that entry (ctime to the second) matches it: every tracked file goes first, so
    // checkout writes each.
    for (const path of (await repo.git('ls-files', '-z')).split('\0').filter(Boolean)) {
      rmSync(join(repo.root, path), { force: true });
    }
    await repo.git('checkout', '--quiet', '--', '.');
    await repo.git('clean', '-fdq');
    backdate();
    await settleThenRefresh();
  };
  /** A run whose stamp asked git again, and was not answered from the saved result. */
  const expectGitAsked = async () => {
    const out = await run();
    expect(out.gits).toBeGreaterThan(0);
    expect(out.stderr).not.toContain(ANSWERED);
  };

  test(
    'answers a repeat run and the stop hook without starting git',
    async () => {
      await primed();
      const again = await run();
      expect(again.stderr).toContain(ANSWERED);
      expect(again.gits).toBe(0);
      expect(again.stdout).toContain('may be declared done');
      expect((await stop()).exitCode).toBe(0); // the first stop saves its stamp
      const stopped = await stop();
      expect(stopped.stderr).toContain(STOP_ANSWERED);
      expect(stopped.gits).toBe(0);
      // tollgate's own folder is ignored whole (its .gitignore is `*`): a new file there changes nothing.
      writeFileSync(join(repo.root, '.tollgate', 'note.txt'), 'x\n');
      expect((await run()).gits).toBe(0);
    },
    BUDGET,
  );

  test(
    'after a touch, git is asked once and the evidence renewed; a real edit after that is still seen',
    async () => {
      await primed();
      const stopped = await stop(); // the first stop saves its stamp and evidence
      expect(stopped.exitCode).toBe(0);
      const before = await run();
      expect(before.gits).toBe(0);
      // A touch: the same bytes, new times. The evidence no longer holds; git proves nothing changed.
      const now = new Date();
      utimesSync(join(repo.root, 'app.txt'), now, now);
      // Inside the record's racy window (the file's ctime under two seconds old) nothing is renewed: git each time.
      // (Only checked when both runs ended inside that window: on a loaded machine the second may already renew.)
      expect((await run()).gits).toBeGreaterThan(0);
      const racy = await run();
      const insideWindow = Date.now() - now.getTime() < 1900;
      if (insideWindow) expect(racy.gits).toBeGreaterThan(0);
      expect(racy.stderr).toContain(ANSWERED);
      // Its ctime must be older than the record's racy window: wait it out, as an agent's pause would.
      await new Promise((resolveWait) => setTimeout(resolveWait, 2100));
      const saved = () =>
        ['run-cache.json', 'stop-cache.json'].map((name) => readFileSync(join(repo.root, '.tollgate', name), 'utf8'));
      const savedBefore = saved();
      const asked = await run();
      if (insideWindow) expect(asked.gits).toBeGreaterThan(0);
      expect(asked.stderr).toContain(ANSWERED);
      expect(saved()).toEqual(savedBefore); // only the evidence is renewed, never the saved result
      const renewed = await run();
      expect(renewed.gits).toBe(0);
      expect(renewed.stderr).toContain(ANSWERED);
      expect(renewed.stdout).toContain('may be declared done');
      expect(renewed.exitCode).toBe(before.exitCode);
      // The stop hook, touched again: it asks git once, renews, then answers without git.
      utimesSync(join(repo.root, 'src', 'a.txt'), new Date(), new Date());
      await new Promise((resolveWait) => setTimeout(resolveWait, 2100));
      const stopAsked = await stop();
      expect(stopAsked.gits).toBeGreaterThan(0);
      expect(stopAsked.stderr).toContain(STOP_ANSWERED);
      const stopRenewed = await stop();
      expect(stopRenewed.gits).toBe(0);
      expect(stopRenewed.stderr).toContain(STOP_ANSWERED);
      // A real content change after that: no fast answer.
      writeFileSync(join(repo.root, 'app.txt'), 'changed\n');
      const changed = await run();
      expect(changed.gits).toBeGreaterThan(0);
      expect(changed.stderr).not.toContain(ANSWERED);
    },
    BUDGET,
  );

  test(
    'an edit that keeps size and mtime, a new file, a deleted file, a chmod: git is asked',
    async () => {
      await primed();
      const path = join(repo.root, 'app.txt');
      const { atime, mtime } = statSync(path);
      writeFileSync(path, 'HELLO\n');
      utimesSync(path, atime, mtime);
      await expectGitAsked();

      await restore();
      await primed();
      await mkdir(join(repo.root, 'src', 'deep'), { recursive: true });
      writeFileSync(join(repo.root, 'src', 'deep', 'new.txt'), 'new\n');
      await expectGitAsked();

      await restore();
      await primed();
      rmSync(join(repo.root, 'src', 'a.txt'));
      await expectGitAsked();

      await restore();
      await primed();
      chmodSync(join(repo.root, 'feature.txt'), 0o755);
      await expectGitAsked();
    },
    BUDGET,
  );

  test(
    'an edit not staged is answered without git too, until the attributes git compares it through change',
    async () => {
      await repo.write('app.txt', 'edited, not staged\n');
      const past = new Date(Date.now() - 60_000);
      utimesSync(join(repo.root, 'app.txt'), past, past);
      // Its ctime must be older than the record's racy window: wait it out, as an agent's pause would.
      await new Promise((resolveWait) => setTimeout(resolveWait, 2100));
      await primed();
      await mkdir(join(repo.root, '.git', 'info'), { recursive: true });
      writeFileSync(join(repo.root, '.git', 'info', 'attributes'), '*.txt text eol=crlf\n');
      // git is asked (here it says the same: the file still differs from its entry).
      expect((await run()).gits).toBeGreaterThan(0);
    },
    BUDGET,
  );

  test(
    'the refs, the repository config, the global config, the policy state: git is asked',
    async () => {
      await primed();
      await repo.git('update-ref', 'refs/remotes/origin/main', 'HEAD');
      await expectGitAsked();

      await repo.git('update-ref', 'refs/remotes/origin/main', 'HEAD~1');
      await primed();
      // A clean filter: the stamp no longer vouches, whatever status says.
      await repo.git('config', 'filter.any.clean', 'cat');
      await expectGitAsked();

      await repo.git('config', '--unset', 'filter.any.clean');
      await primed();
      const global = repo.env.GIT_CONFIG_GLOBAL!;
      writeFileSync(global, `${readFileSync(global, 'utf8')}[filter "any"]\n\tclean = cat\n`);
      await expectGitAsked();
    },
    BUDGET,
  );

  test(
    'the policy state, or evidence edited outside tollgate: not answered from the evidence',
    async () => {
      await primed();
      await writeFile(join(repo.root, '.tollgate/policy-accepted.json'), '{"version":1,"accepted":[]}\n');
      const policy = await run();
      expect(policy.stderr).not.toContain(ANSWERED);
      rmSync(join(repo.root, '.tollgate/policy-accepted.json'));

      await primed();
      const evidencePath = join(repo.root, '.tollgate/stamp-evidence.json');
      const evidence = JSON.parse(readFileSync(evidencePath, 'utf8')) as Record<string, unknown>;
      // Edited by hand (its signature no longer holds, though every path it watches is as it says): git is asked,
      // and the unchanged tree is still answered.
      const status = String(evidence.status).replace(/# branch\.ab [^\0]*\0/, '# branch.ab +0 -0\0');
      expect(status).not.toBe(evidence.status);
      writeFileSync(evidencePath, JSON.stringify({ ...evidence, status }));
      const forged = await run();
      expect(forged.gits).toBeGreaterThan(0);
      expect(forged.stderr).toContain(ANSWERED);
    },
    BUDGET,
  );
});
