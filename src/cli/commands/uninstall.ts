/** `tollgate uninstall` shares its flags and parsing with `install`, so it is declared there. */
export { registerUninstall } from './install.js';
