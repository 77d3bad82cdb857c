import { describe, expect, test, vi } from 'vitest';
import { sharedSecretScanner } from './redact.js';
import { type ScanTarget, scanTargets } from './scan-targets.js';
import { SecretScanner } from './scanner.js';

const scanner = sharedSecretScanner();

/** Targets whose reads settle a tick later, recording when each started and how many were in flight at once. */
function trackedTargets(count: number, extra: (index: number) => Partial<ScanTarget> = () => ({})) {
  const started: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const targets: ScanTarget[] = Array.from({ length: count }, (_, index) => ({
    path: `src/file${index}.ts`,
    read: async () => {
      started.push(index);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      return `export const value${index} = ${index};\n`;
    },
    ...extra(index),
  }));
  return { targets, started, mostInFlight: () => mostInFlight };
}

describe('scanTargets reads ahead', () => {
  test('reads overlap, bounded, and every target is scanned once', async () => {
    const { targets, started, mostInFlight } = trackedTargets(100);
    const outcome = await scanTargets(targets, { scanner });
    expect(outcome.scannedFiles).toBe(100);
    expect(outcome.skipped).toEqual([]);
    expect([...started].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, index) => index));
    expect(mostInFlight()).toBeGreaterThan(1);
    expect(mostInFlight()).toBeLessThanOrEqual(17);
  });

  test('a read that throws or rejects is an unreadable file, named with its error code, and the rest go on', async () => {
    const { targets } = trackedTargets(40);
    targets[3] = {
      path: 'thrown.txt',
      read: () => {
        throw Object.assign(new Error('denied'), { code: 'EACCES' });
      },
    };
    targets[20] = { path: 'rejected.txt', read: () => Promise.reject(new Error('gone')) };
    const outcome = await scanTargets(targets, { scanner });
    expect(outcome.scannedFiles).toBe(38);
    expect(outcome.skipped).toEqual([
      { path: 'thrown.txt', reason: 'unreadable', detail: 'EACCES' },
      { path: 'rejected.txt', reason: 'unreadable', detail: 'read failed' },
    ]);
  });

  test('a target checked against a snapshot blob, a skipped or an allowlisted one is not read early', async () => {
    const { targets, started } = trackedTargets(30, (index) =>
      index === 5 ? { expectedBlob: { id: 'a'.repeat(40), objectFormat: 'sha1' } } : {},
    );
    targets[6] = { path: 'vendor/x.js', read: async () => 'x' };
    targets[7] = { path: 'skip.txt', read: async () => 'x', skip: { reason: 'unreadable', detail: 'known' } };
    const outcome = await scanTargets(targets, { scanner, allowPaths: ['vendor/**'] });
    // File 5 is read only when its turn comes: after the files before it were scanned and later ones started.
    expect(started.indexOf(5)).toBeGreaterThan(started.indexOf(8));
    expect(outcome.skipped.map((skip) => skip.path)).toEqual(['vendor/x.js', 'skip.txt']);
    expect(outcome.scannedFiles).toBe(28);
  });

  test('an aborted scan stops, and reads already started settle without an unhandled rejection', async () => {
    const controller = new AbortController();
    const targets: ScanTarget[] = Array.from({ length: 50 }, (_, index) => ({
      path: `f${index}.txt`,
      read: async () => {
        if (index === 0) controller.abort();
        if (index > 0) throw new Error('late');
        return 'first\n';
      },
    }));
    const outcome = await scanTargets(targets, { scanner, signal: controller.signal });
    expect(outcome.scannedFiles).toBe(1);
  });
});

describe('scanAsText', () => {
  const message = Buffer.from(
    'Add the deploy settings\n\nDB_PASSWORD="Tq8#vNw2!pLr6@zXe"\nnaïve café: aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY\n',
  );

  test('the same outcome as the byte path, from the decoded text only', async () => {
    const fresh = new SecretScanner(scanner.rules);
    const viewed = vi.spyOn(fresh, 'scanView');
    const target = (scanAsText: boolean): ScanTarget => ({
      path: 'commit 0123 message',
      commit: 'a'.repeat(40),
      ...(scanAsText ? { scanAsText } : {}),
      read: async () => message,
    });
    const asBytes = await scanTargets([target(false)], { scanner: fresh });
    expect(viewed).toHaveBeenCalledTimes(1);
    const asText = await scanTargets([target(true)], { scanner: fresh });
    expect(viewed).toHaveBeenCalledTimes(1);
    expect(asBytes.findings.length).toBeGreaterThan(0);
    expect(asText).toEqual(asBytes);
  });
});

describe('content at hand', () => {
  const texts = Array.from({ length: 3000 }, (_, index) =>
    index % 500 === 0 ? `DB_PASSWORD="Tq8#vNw2!pLr${index}@zXe"\n` : `export const value${index} = ${index};\n`,
  );

  test('is scanned without a read, as the read would give it, and the event loop gets turns meanwhile', async () => {
    let reads = 0;
    const read = (text: string) => () => {
      reads++;
      return Promise.resolve(text);
    };
    const readOnly = await scanTargets(
      texts.map((text, index) => ({ path: `src/f${index}.ts`, read: read(text) })),
      { scanner },
    );
    expect(reads).toBe(3000);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    let turnedBeforeEnd = false;
    const atHand = await scanTargets(
      texts.map((text, index) => ({ path: `src/f${index}.ts`, content: text, read: read(text) })),
      {
        scanner,
        onProgress: (done) => {
          if (done === 3000) turnedBeforeEnd = turned;
        },
      },
    );
    expect(reads).toBe(3000);
    expect(turnedBeforeEnd).toBe(true);
    expect(atHand.findings.length).toBeGreaterThan(0);
    expect(atHand).toEqual(readOnly);
  });
});
