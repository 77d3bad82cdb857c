import { readFileSync } from 'node:fs';
import { packageFile, packageManifest } from './package-files.js';

/**
 * package.json's version, written into each bundle by the build (scripts/bundle-lib.mjs, `versionDefine`): a fast
 * path's start then neither walks up to package.json nor parses it. Undefined outside a bundle (tests, tsc's output).
 */
declare const __TOLLGATE_BUNDLED_VERSION__: string | undefined;

/** Read once from our own package.json, or from what the build wrote into the bundle. */
export const TOLLGATE_VERSION: string =
  typeof __TOLLGATE_BUNDLED_VERSION__ === 'string'
    ? __TOLLGATE_BUNDLED_VERSION__
    : (() => {
        try {
          const manifest =
            packageManifest() ?? (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as object);
          const { version } = manifest as { version?: unknown };
          return typeof version === 'string' ? version : '0.0.0';
        } catch {
          return '0.0.0';
        }
      })();
