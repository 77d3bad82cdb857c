#!/usr/bin/env node
'use strict';
// The pre-commit framework's entry (.pre-commit-hooks.yaml, `language: script`): it runs the committed, prebuilt CLI
// (action/dist/tollgate.cjs, the bundle the GitHub Action runs, kept byte-equal to a fresh build by
// test/integrations/action-bundle.test.ts) with the `node` on PATH. So pre-commit installs no environment: no npm
// install of the project's development dependencies and no TypeScript build, only its clone of the repository.
const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  process.stderr.write(
    `tollgate: needs Node.js 20 or later, and the \`node\` on PATH is ${process.version}: put a newer node first on PATH\n`,
  );
  process.exit(2);
}
require('../action/dist/tollgate.cjs');
