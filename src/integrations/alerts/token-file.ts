import { readFileSync } from 'node:fs';
import { errorMessage, TollgateError } from '../../core/errors.js';

/**
 * `GITHUB_TOKEN_FILE`: the alerts token read from a file or a descriptor (`GITHUB_TOKEN_FILE=/dev/fd/3 … 3<token`)
 * instead of the environment. A token in tollgate's own starting environment can be read by every process below it
 * (`/proc/<pid>/environ` keeps it, whatever tollgate deletes later), agents included; one read from a file exists
 * only in tollgate's memory. The token goes on in the in-memory env that the GitHub calls read; agents never get it.
 */
export function withTokenFromFile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const path = env.GITHUB_TOKEN_FILE;
  if (path === undefined || path === '') return env;
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new TollgateError('usage', `GITHUB_TOKEN_FILE: cannot read ${JSON.stringify(path)}: ${errorMessage(error)}`);
  }
  if (token === '' || /\s/.test(token))
    throw new TollgateError('usage', `GITHUB_TOKEN_FILE: ${JSON.stringify(path)} must hold one token on one line`);
  const { GITHUB_TOKEN_FILE: _file, GH_TOKEN: _gh, ...rest } = env;
  return { ...rest, GITHUB_TOKEN: token };
}
