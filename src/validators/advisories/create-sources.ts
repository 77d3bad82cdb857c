import { resolve } from 'node:path';
import type { AdvisoriesOptions } from './options.js';
import { createGithubSource } from './sources/github.js';
import { createOfflineSource } from './sources/offline-osv.js';
import { createOsvSource } from './sources/osv-api.js';
import type { AdvisorySource } from './sources/source.js';

/** The configured sources, in config order. `offline.dir` is relative to `root` (the repository). */
export function createSources(options: AdvisoriesOptions, root: string): AdvisorySource[] {
  return options.sources.map((name) => sourceNamed(name, options, root));
}

function sourceNamed(
  name: AdvisoriesOptions['sources'][number],
  options: AdvisoriesOptions,
  root: string,
): AdvisorySource {
  switch (name) {
    case 'osv':
      return createOsvSource({ baseUrl: options.osv.url });
    case 'github':
      return createGithubSource({ url: options.github.url, tokenEnv: options.github.tokenEnv });
    case 'offline':
      return createOfflineSource({ dir: resolve(root, options.offline.dir ?? '.') });
  }
}
