import { isPlaceholder } from './placeholders.js';

/** Passwords in URLs that stand for "put yours here" or are the tutorial default. */
const NOT_A_PASSWORD = new Set([
  'password',
  'pass',
  'passwd',
  'pwd',
  'secret',
  'token',
  'changeme',
  'admin',
  'root',
  'postgres',
  'mysql',
  'guest',
  'test',
  'user',
  'username',
  'example',
  'redis',
  'mongo',
  'rabbitmq',
  'default',
  'demo',
  'foo',
  'bar',
  'x',
  'xx',
  'apikey',
  'api_key',
  'access_token',
  'token123',
  'mypassword',
  'yourpassword',
  'foobared',
]);

/** The password part of a URL or connection string: present, not a placeholder, a reference or a default. */
export function isUsablePassword(password: string): boolean {
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // Not percent-encoded; judge it as written.
  }
  if (decoded.length < 3) return false;
  if (NOT_A_PASSWORD.has(decoded.toLowerCase())) return false;
  if (/^[$%#{<*]|^\$|^x+$|^\*+$/i.test(decoded)) return false;
  // `myuser:mypass@`, `cacheuser:cachepass@`: a word and "pass" is the tutorial's stand-in.
  if (/^(?:my|your|the|some)[a-z]*$|^[a-z]*pass(?:word|wd)?$/i.test(decoded)) return false;
  return !isPlaceholder(decoded);
}
