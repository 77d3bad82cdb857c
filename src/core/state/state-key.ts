import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorMessage, TollgateError } from '../errors.js';
import { os } from '../os-lazy.js';

/**
 * The per-user key that signs what tollgate keeps in `.tollgate/` (results, verdicts, waivers, the stop hook's
 * stamp). It lives outside every repository, so a file written or edited inside the work tree, by hand or by an
 * agent, does not carry a valid signature. It is tamper-evidence, not a wall: a process running as the same user can
 * read this file too (docs/gate.md, threat model).
 *
 * `TOLLGATE_STATE_SIGNER_PATH` points elsewhere (tests give every run its own key). Its name avoids KEY, TOKEN, SECRET
 * and the like: agents strip variables so named from their MCP servers' environment (Gemini CLI always does), and a
 * server signing with another key than the stop hook's makes every run count for nothing. The older
 * `TOLLGATE_STATE_KEY_FILE` is still read when the new name is not set.
 */
export const STATE_SIGNER_PATH_ENV = 'TOLLGATE_STATE_SIGNER_PATH';
export const STATE_KEY_FILE_ENV = 'TOLLGATE_STATE_KEY_FILE';
/** Every variable that decides where the key is, for agents that pass an MCP server only the variables named. */
export const STATE_KEY_LOCATION_ENV = ['XDG_STATE_HOME', STATE_SIGNER_PATH_ENV, STATE_KEY_FILE_ENV] as const;
const KEY_BYTES = 32;

export function stateKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[STATE_SIGNER_PATH_ENV] || env[STATE_KEY_FILE_ENV];
  if (override) return override;
  const stateHome = env.XDG_STATE_HOME || join(env.HOME || os().homedir(), '.local', 'state');
  return join(stateHome, 'tollgate', 'state.key');
}

/** Keys already read by this process, by path: the hook's fast path reads the file once. */
const loaded = new Map<string, Buffer>();

/**
 * The key, created on first use (32 random bytes, mode 0600). Two runs creating it at once cannot both win: each
 * writes its own temp file and `link`s it to the final name, which fails for the second (EEXIST), and that one then
 * reads the winner's key. A reader therefore never sees a half-written key.
 */
export async function loadStateKey(env: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  const path = stateKeyPath(env);
  const known = loaded.get(path);
  if (known) return known;
  const key = (await readKey(path)) ?? (await createKey(path));
  loaded.set(path, key);
  return key;
}

/**
 * Reads of the key under way, by path: a fast path asks for the key from two places at once (the stamp's evidence and
 * the saved answer), and both then wait for one read.
 */
const reading = new Map<string, Promise<Buffer | null>>();

/** The key when it exists; null when it does not (nothing was ever signed by this user, so nothing can verify). */
export function readStateKeyIfPresent(env: NodeJS.ProcessEnv = process.env): Promise<Buffer | null> {
  const path = stateKeyPath(env);
  const known = loaded.get(path);
  if (known) return Promise.resolve(known);
  const pending = reading.get(path);
  if (pending) return pending;
  const read = readKey(path).then(
    (key) => {
      reading.delete(path);
      if (key) loaded.set(path, key);
      return key;
    },
    (error: unknown) => {
      reading.delete(path);
      throw error;
    },
  );
  reading.set(path, read);
  return read;
}

async function readKey(path: string): Promise<Buffer | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new TollgateError('io', `${path}: could not read tollgate's state key: ${errorMessage(error)}`);
  }
  if (bytes.length !== KEY_BYTES) {
    throw new TollgateError(
      'io',
      `${path}: tollgate's state key should be ${KEY_BYTES} bytes, found ${bytes.length}; delete it (tollgate makes a new one and re-validates)`,
    );
  }
  return bytes;
}

async function createKey(path: string): Promise<Buffer> {
  const dir = dirname(path);
  const temp = join(dir, `.state.key.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(randomBytes(KEY_BYTES));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temp, path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  } catch (error) {
    throw new TollgateError('io', `${path}: could not create tollgate's state key: ${errorMessage(error)}`);
  } finally {
    await rm(temp, { force: true });
  }
  const key = await readKey(path);
  if (!key) throw new TollgateError('io', `${path}: tollgate's state key vanished while it was being created`);
  return key;
}
