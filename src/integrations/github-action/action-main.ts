import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stepEnvironmentFromInputs } from './runner-inputs.js';

/**
 * The Action's `main` (action.yml `runs.main`, bundled by `npm run build:action` into action/dist/index.cjs). The
 * runner starts it with each input as `INPUT_<NAME>`; it sets the step's settings from them and runs the bundled
 * CLI beside it as `tollgate action-step`, which starts the gate where no ancestor holds the token.
 */
const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, 'tollgate.cjs');
Object.assign(process.env, stepEnvironmentFromInputs(process.env));
process.argv = [process.argv[0] ?? process.execPath, cli, 'action-step'];
createRequire(import.meta.url)('./tollgate.cjs');
