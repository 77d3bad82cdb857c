import { describe, expect, test, vi } from 'vitest';
import { createAlertProgress, elapsed } from './progress.js';

describe('validate-alert progress', () => {
  test('lines: a line per stage and per task, with agent, state and elapsed time, and what is still running', () => {
    vi.useFakeTimers();
    try {
      let clock = 0;
      const out: string[] = [];
      const progress = createAlertProgress({ mode: 'lines', write: (text) => out.push(text), now: () => clock });
      progress.stage('analyses', '2 competing, on claude, codex');
      progress.start('analysis 1/2', 'claude');
      progress.start('analysis 2/2', 'codex');
      clock = 65_000;
      vi.advanceTimersByTime(60_000);
      progress.end('analysis 1/2', 'completed');
      progress.close();
      expect(out).toEqual([
        'tollgate: analyses: 2 competing, on claude, codex [0s]\n',
        'tollgate: analysis 1/2 (claude): running [0s]\n',
        'tollgate: analysis 2/2 (codex): running [0s]\n',
        'tollgate: still running: analysis 1/2 (claude) running 1m05s; analysis 2/2 (codex) running 1m05s [1m05s]\n',
        'tollgate: analysis 1/2 (claude): completed after 1m05s [1m05s]\n',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  test('live: a line per task redrawn in place, cleared at the end', () => {
    const out: string[] = [];
    const progress = createAlertProgress({ mode: 'live', write: (text) => out.push(text), now: () => 0, columns: 40 });
    progress.start('analysis 1/1', 'gemini');
    progress.end('analysis 1/1', 'timeout');
    progress.close();
    const text = out.join('');
    expect(text).toContain('analysis 1/1 (gemini) running 0s\n');
    expect(text).toContain('\x1b[1A\x1b[0J');
    expect(text.endsWith('\x1b[1A\x1b[0J')).toBe(true);
  });

  test('off prints nothing; elapsed reads like a clock', () => {
    const out: string[] = [];
    const progress = createAlertProgress({ mode: 'off', write: (text) => out.push(text) });
    progress.stage('x');
    progress.close();
    expect(out).toEqual([]);
    expect([elapsed(999), elapsed(61_000), elapsed(3_725_000)]).toEqual(['0s', '1m01s', '1h02m']);
  });
});
