/**
 * Progress of one validate-alert run on stderr: analyses can take tens of minutes, and a silent terminal looks hung.
 *
 * `lines` (CI logs, pipes, agents): one line per stage and per task start and end, with the agent and the elapsed
 * time, plus a "still running" line every minute. `live` (a terminal): the same events, and one line per task redrawn
 * in place every second. `off`: nothing (the sweep prints its own line per alert).
 */
export type AlertProgressMode = 'live' | 'lines' | 'off';

export interface AlertProgress {
  stage(name: string, detail?: string): void;
  /** A task (`analysis 1/3`, `challenge 2`, `judge`) started on an agent CLI. */
  start(task: string, agent: string): void;
  /** It ended: `completed`, `timeout`, `CONFIRMED`, … */
  end(task: string, state: string): void;
  /** Stops the timers and clears the live lines. */
  close(): void;
}

export interface AlertProgressOptions {
  mode: AlertProgressMode;
  write(text: string): void;
  /** Terminal width for live lines. */
  columns?: number;
  now?: () => number;
  /** How often `lines` repeats what is still running (default one minute). */
  heartbeatMs?: number;
}

interface Task {
  name: string;
  agent: string;
  state: string;
  startedAt: number;
  endedAt?: number;
}

const OFF: AlertProgress = { stage: () => {}, start: () => {}, end: () => {}, close: () => {} };

export function createAlertProgress(options: AlertProgressOptions): AlertProgress {
  if (options.mode === 'off') return OFF;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const tasks = new Map<string, Task>();
  let drawn = 0;
  const clear = () => {
    if (options.mode === 'live' && drawn > 0) options.write(`\x1b[${drawn}A\x1b[0J`);
    drawn = 0;
  };
  const draw = () => {
    if (options.mode !== 'live') return;
    clear();
    const width = Math.max(20, (options.columns ?? 80) - 1);
    const lines = [...tasks.values()].map((task) => truncateTo(describe(task, now()), width));
    if (lines.length > 0) options.write(`${lines.join('\n')}\n`);
    drawn = lines.length;
  };
  const say = (text: string) => {
    clear();
    options.write(`tollgate: ${text} [${elapsed(now() - startedAt)}]\n`);
    draw();
  };
  const timer =
    options.mode === 'live'
      ? setInterval(draw, 1000)
      : setInterval(() => {
          const running = [...tasks.values()].filter((task) => task.endedAt === undefined);
          if (running.length > 0) say(`still running: ${running.map((task) => describe(task, now())).join('; ')}`);
        }, options.heartbeatMs ?? 60_000);
  timer.unref();
  return {
    stage(name, detail) {
      say(`${name}${detail ? `: ${detail}` : ''}`);
    },
    start(name, agent) {
      tasks.set(name, { name, agent, state: 'running', startedAt: now() });
      say(`${name} (${agent}): running`);
    },
    end(name, state) {
      const task = tasks.get(name);
      if (!task) return;
      task.state = state;
      task.endedAt = now();
      say(`${name} (${task.agent}): ${state} after ${elapsed(task.endedAt - task.startedAt)}`);
    },
    close() {
      clearInterval(timer);
      clear();
    },
  };
}

function describe(task: Task, at: number): string {
  return `${task.name} (${task.agent}) ${task.state} ${elapsed((task.endedAt ?? at) - task.startedAt)}`;
}

/** "42s", "3m05s", "1h02m". */
export function elapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

function truncateTo(line: string, width: number): string {
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}
