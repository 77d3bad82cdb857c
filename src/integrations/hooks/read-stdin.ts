import type { Readable } from 'node:stream';

export type StdinRead = { kind: 'ok'; text: string } | { kind: 'timeout'; text: string } | { kind: 'tty' };

/**
 * Reads the hook's stdin to its end, or until `timeoutMs` passes (an agent that keeps stdin open must not hang
 * us). A terminal is not a payload. `prefix`: what was already read from it (`readStdinNow`).
 */
export function readStdin(
  stream: Readable & { isTTY?: boolean },
  timeoutMs: number,
  prefix?: Buffer,
): Promise<StdinRead> {
  if (stream.isTTY) return Promise.resolve({ kind: 'tty' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = prefix && prefix.length > 0 ? [prefix] : [];
    const finish = (kind: 'ok' | 'timeout') => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onEnd);
      stream.pause();
      resolve({ kind, text: Buffer.concat(chunks).toString('utf8') });
    };
    const onData = (chunk: Buffer | string) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onEnd = () => finish('ok');
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    timer.unref();
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onEnd);
  });
}

export type PayloadParse = { ok: true; payload: Record<string, unknown> } | { ok: false; problem: string };

/**
 * The payload as a JSON object. Cursor may prefix a UTF-8 BOM; surrounding whitespace is fine. The problem text
 * completes `hook stdin: …`.
 */
export function parsePayload(text: string): PayloadParse {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') {
    return {
      ok: false,
      problem: 'expected a JSON object from the agent, got empty input (is this running as a stop hook?)',
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return {
      ok: false,
      problem: `expected a JSON object from the agent, got text starting ${JSON.stringify(trimmed.slice(0, 20))}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      problem: `expected a JSON object from the agent, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    };
  }
  return { ok: true, payload: value as Record<string, unknown> };
}
