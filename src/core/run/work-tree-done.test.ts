import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import { testTool } from '../../../test/support/test-tool.js';
import type { RepoChangeSet } from '../change-set/types.js';
import { parseConfigText } from '../config/load.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import { result } from '../result.js';
import { executeSelected } from './execute-selected.js';

/**
 * When the check of the tree after the validators may begin (`onWorkTreeDone`): once every validator has settled or
 * said it reads only the snapshot from then on, and only while one still runs. Every step is ordered by promises the
 * test releases, never by a wait, so the order holds on a loaded machine.
 */
let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo();
});
afterEach(() => repo.cleanup());

/** What happened, in order: `said snapshot`, `settled live`, `work tree done`, `settled snapshot`. */
let timeline: string[];
/** Releases the snapshot tool's scan, and the live tool's work. */
let releaseScan: () => void;
let releaseLive: () => void;
let scanReleased: Promise<void>;
let liveReleased: Promise<void>;
/** Resolves once the snapshot tool has said it reads only the snapshot. */
let said: Promise<void>;
let markSaid: () => void;
beforeEach(() => {
  timeline = [];
  said = new Promise((resolve) => {
    markSaid = resolve;
  });
  scanReleased = new Promise((resolve) => {
    releaseScan = resolve;
  });
  liveReleased = new Promise((resolve) => {
    releaseLive = resolve;
  });
});

/** Like the secret scan: says it reads only the snapshot, then scans until released. */
const snapshot = testTool('snapshot', async (ctx) => {
  if (ctx.doneWithWorkTree) {
    ctx.doneWithWorkTree();
    timeline.push('said snapshot');
    markSaid();
  }
  await scanReleased;
  timeline.push('settled snapshot');
  return result('passed', 'scanned');
});

/** Like a check: runs a command in the work tree until released, and never says anything of the tree. */
const live = testTool('live', async () => {
  await liveReleased;
  timeline.push('settled live');
  return result('passed', 'checked');
});

const tools = [snapshot, live];

function run(calls: readonly AnyToolDefinition[], configText = '') {
  const loaded = parseConfigText({ text: configText, file: null, env: {}, registries: registriesWith(tools) });
  return executeSelected(
    calls.map((call) => ({ tool: call, arguments: {} })),
    {
      repoRoot: repo.root,
      config: loaded.config,
      configHash: 'config-1',
      registry: tools,
      changeSet: {
        root: repo.root,
        files: [],
        ignored: [],
        skipped: [],
        fingerprint: 'fp-1',
        isEmpty: false,
        head: 'head-1',
        hasCommits: true,
      } as unknown as RepoChangeSet,
      events: { emit: () => {} },
      runDir: repo.root,
      deadline: Date.now() + 60_000,
      env: repo.env,
      onWorkTreeDone: () => {
        timeline.push('work tree done');
        releaseScan();
      },
    },
  );
}

describe('the check of the tree may begin', () => {
  test('once the validator that reads the tree settles, while the one reading the snapshot still scans', async () => {
    const done = run([live, snapshot]);
    await said;
    expect(timeline).toEqual(['said snapshot']);
    releaseLive();
    await done;
    expect(timeline).toEqual(['said snapshot', 'settled live', 'work tree done', 'settled snapshot']);
  });

  test('not while a validator waiting for its slot has not run (concurrency 1)', async () => {
    const done = run([snapshot, live], 'validation:\n  concurrency: 1\n');
    releaseLive();
    // The snapshot tool said so first, but the live one had not started: nothing is told until the last settles.
    releaseScan();
    await done;
    expect(timeline).toEqual(['said snapshot', 'settled snapshot', 'settled live']);
  });

  test('never when every validator settles without saying so', async () => {
    releaseLive();
    await run([live]);
    expect(timeline).toEqual(['settled live']);
  });

  test('not for a validator with a postToolUse hook: the hook is a command of the user, run after it', async () => {
    const done = run([live, snapshot], 'hooks:\n  postToolUse:\n    - run: "true"\n      matcher: snapshot\n');
    releaseLive();
    releaseScan();
    await done;
    // Both run at once, so either may settle first; neither is offered the early check.
    expect([...timeline].sort()).toEqual(['settled live', 'settled snapshot']);
  });
});
