import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { exitWhenIdle } from './exit-when-idle.js';

describe('exitWhenIdle', () => {
  it('exits once, when the event loop has nothing left (beforeExit), not before', () => {
    const events = new EventEmitter();
    const exit = vi.fn();
    exitWhenIdle({ once: events.once.bind(events), exit } as unknown as Pick<NodeJS.Process, 'once' | 'exit'>);
    expect(exit).not.toHaveBeenCalled();
    events.emit('beforeExit', 0);
    events.emit('beforeExit', 0);
    expect(exit).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith();
  });

  it('keeps the exit code, lets pending work and writes finish, and still runs the exit handlers', () => {
    // The same listener in a real process: a timer still pending when it is installed, a large write to a pipe, and
    // an `exit` handler (where the code cache is written and private folders removed).
    const script = [
      "process.once('beforeExit', () => process.exit());",
      'process.exitCode = 7;',
      "setTimeout(() => process.stdout.write('x'.repeat(200000)), 20);",
      "process.on('exit', (code) => process.stderr.write('exit handler ' + code));",
    ].join('\n');
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(result.status).toBe(7);
    expect(result.stdout).toHaveLength(200000);
    expect(result.stderr).toBe('exit handler 7');
  });
});
