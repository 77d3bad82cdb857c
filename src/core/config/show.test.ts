import { describe, expect, test } from 'vitest';
import { checksTool } from '../../validators/checks/index.js';

/** Only the checks validator: these tests pin exact text, which must not move when a validator is added. */
const validators = [checksTool];

import { registriesWith } from '../../../test/support/registries.js';
import { AGENT_NAMES } from '../../agents/index.js';
import { applyFlagOverrides, parseConfigText } from './load.js';
import { renderConfigJson, renderConfigText } from './show.js';

const loaded = applyFlagOverrides(
  parseConfigText({
    text: [
      'validation:',
      '  timeout: 90s',
      'waivers:',
      '  allow: [high]',
      'checks:',
      '  - name: test',
      '    run: "npm test -- --reporter=dot"',
      '    paths: ["src/**"]',
    ].join('\n'),
    file: 'tollgate.config.yaml',
    env: { TOLLGATE_USE_CHECKS: '0' },
    registries: registriesWith(validators),
  }),
  { base: 'origin/main' },
);

describe('config show', () => {
  test('prints YAML with the source of every setting after it', () => {
    expect(renderConfigText(loaded, registriesWith(validators))).toBe(
      `# config file: tollgate.config.yaml
base: origin/main  # from flag
ignore: []  # default
hooks:
  preToolUse: []  # default
  postToolUse: []  # default
  postToolUseFailure: []  # default
  stop:
    run: false  # default
    validators: [ checks, secrets, advisories, static_analysis ]  # default
    timeout: 1m  # default
    onError: allow  # default
permissions:
  runCommands: allow  # default
  spawnAgents: allow  # default
  network: allow  # default
  writeFiles: deny  # default
output:
  format: markdown  # default
  file:  # default (not set)
  maxOutputLines: 40  # default
  sarifChecks: false  # default
  keepRuns: 50  # default
waivers:
  allow: [ high ]  # from file
  expires:  # default (not set)
reviewComments:
  enabled: true  # default
  includeAuthors: []  # default
  excludeAuthors: []  # default
  includeOutdated: false  # default
  maxThreads: 500  # default
  autoReply: false  # default
  autoResolve: false  # default
  autoResolveClassifications: []  # default
  requireChecksBeforeResolve: true  # default
  checkEvidence: local  # default
  requiredChecks: []  # default
  waitForChecks:  # default (not set)
  rateLimitFloor: 100  # default
  requestTimeout: 30s  # default
  replyTemplate:  # default (not set)
alerts:
  analyses: 3  # default
  agents: [ ${AGENT_NAMES.join(', ')} ]  # default
  minResponseLength: 500  # default
  maxContinuationAttempts: 2  # default
  maxTurns: 60  # default
  timeouts:
    analysis: 30m  # default
    challenge: 10m  # default
    judge: 5m  # default
  adapters: {}  # default
validators: {}  # default
validation:
  timeout: 1m30s  # from file
  concurrency: 4  # default
  maxFileSize: 1MB  # default
  skipTrivial: []  # default
  required: [ advisories, secrets ]  # default
  strict: false  # default
  checks:
    enabled: false  # env TOLLGATE_USE_CHECKS
checks:  # from file
  - name: test
    run: npm test -- --reporter=dot
    paths:
      - src/**
    timeout: 5m
    env: {}
    cwd: .
`,
    );
  });

  test('says when there is no config file', () => {
    const defaults = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(validators) });
    expect(renderConfigText(defaults, registriesWith(validators)).split('\n')[0]).toBe(
      '# no config file: every value is a default or from the environment',
    );
  });

  test('the printed text loads back to the same config', () => {
    const reloaded = parseConfigText({
      text: renderConfigText(loaded, registriesWith(validators)),
      file: 'shown.yaml',
      env: {},
      registries: registriesWith(validators),
    });
    expect({ ...reloaded.config, validation: { ...reloaded.config.validation, checks: { enabled: false } } }).toEqual(
      loaded.config,
    );
  });

  test('--json maps each dotted path to its value (as written) and source', () => {
    const json = JSON.parse(renderConfigJson(loaded, registriesWith(validators))) as Record<string, unknown>;
    expect(json.base).toEqual({ value: 'origin/main', source: 'flag' });
    expect(json['output.file']).toEqual({ value: null, source: 'default' });
    expect(json['validation.timeout']).toEqual({ value: '1m30s', source: 'file' });
    expect(json['validation.checks.enabled']).toEqual({ value: false, source: 'env' });
    expect(json.checks).toEqual({
      value: [{ name: 'test', run: 'npm test -- --reporter=dot', paths: ['src/**'], timeout: '5m', env: {}, cwd: '.' }],
      source: 'file',
    });
    expect(Object.keys(json)).toEqual([...loaded.sources.keys()]);
  });
});

describe('config show and credentials', () => {
  test('values under credential-like keys are redacted, others shown', () => {
    const withToken = parseConfigText({
      text: 'checks:\n  - name: publish\n    run: npm publish\n    env: { NPM_TOKEN: abc123, CI: "1" }\n',
      file: 'tollgate.config.yaml',
      env: {},
      registries: registriesWith(validators),
    });
    const text = renderConfigText(withToken, registriesWith(validators));
    expect(text).toContain('      NPM_TOKEN: <redacted>\n      CI: "1"\n');
    expect(text).not.toContain('abc123');
    expect(renderConfigJson(withToken, registriesWith(validators))).not.toContain('abc123');
  });
});
