// The repositories the start-up benches time tollgate's fast paths in (bench/startup.mjs, bench/fast-path-phases.mjs):
// small real ones under os.tmpdir(), with a private HOME and git config, so that no user setting moves a figure.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A sandbox folder (`prefix` under os.tmpdir()), its HOME, and the environment every timed process gets: no GIT_*
 * variable but the private global config, no TOLLGATE_ACTIVE.
 */
export function startupSandbox(prefix) {
  const sandbox = mkdtempSync(join(tmpdir(), prefix));
  const home = join(sandbox, 'home');
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@tollgate.invalid\n');
  const env = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), GIT_CONFIG_NOSYSTEM: '1' };
  for (const key of Object.keys(env))
    if (key.startsWith('GIT_') && !['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM'].includes(key)) delete env[key];
  delete env.TOLLGATE_ACTIVE;
  return { sandbox, home, env };
}

/** A committed repository of 200 small files and a one-check config; `changed` files edited after the commit. */
export function makeRepo(sandbox, env, name, changed) {
  const repo = join(sandbox, name);
  mkdirSync(repo);
  const git = (...gitArgs) => spawnSync('git', gitArgs, { cwd: repo, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  for (let index = 0; index < 200; index++) {
    mkdirSync(join(repo, 'src', `m${index % 10}`), { recursive: true });
    writeFileSync(join(repo, 'src', `m${index % 10}`, `f${index}.ts`), `export const v${index} = ${index};\n`);
  }
  writeFileSync(join(repo, 'tollgate.config.yaml'), 'checks:\n  - name: ok\n    run: "true"\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  for (let index = 0; index < changed; index++)
    writeFileSync(join(repo, 'src', 'm0', `f${index * 10}.ts`), `export const changed = ${index};\n`);
  return repo;
}

/** A repository whose upstream (a bare clone) has the initial commit, and 5 edited files committed on top. */
export function makeCommittedChangeRepo(sandbox, env, name) {
  const repo = makeRepo(sandbox, env, name, 0);
  const git = (...gitArgs) => spawnSync('git', gitArgs, { cwd: repo, env, encoding: 'utf8' });
  const remote = join(sandbox, `${name}-origin.git`);
  spawnSync('git', ['init', '-q', '--bare', remote], { env });
  git('remote', 'add', 'origin', remote);
  git('push', '-q', '-u', 'origin', 'main');
  for (let index = 0; index < 5; index++)
    writeFileSync(join(repo, 'src', 'm0', `f${index * 10}.ts`), `export const changed = ${index};\n`);
  git('commit', '-q', '-a', '-m', 'change');
  return repo;
}

/** The stop hook's payload as agents send it, for a session in `cwd`. */
export function stopPayloadFor(cwd) {
  return JSON.stringify({ session_id: 'bench', cwd, hook_event_name: 'Stop', stop_hook_active: false });
}

/**
 * CPU time (user + system, ms) of this process's waited-for children so far, the git processes they started included;
 * null where /proc is not there. Counted in clock ticks: a ratio of sums over many runs, not one run's figure.
 */
export function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'latin1').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}
