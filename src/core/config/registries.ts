import type { Registries } from './schema.js';

export type { Registries } from './schema.js';

/**
 * The registries, looked up lazily: core is below the layers that own them, so it reaches them only through their
 * registry modules and only when a config is read (never at import time).
 */
export async function lookUpRegistries(): Promise<Registries> {
  const [{ validators, declaredValidatorTools }, { AGENT_NAMES }, { REPORT_FORMATS }] = await Promise.all([
    import('../../validators/index.js'),
    import('../../agents/index.js'),
    import('../../report/index.js'),
  ]);
  return {
    tools: validators,
    agentNames: AGENT_NAMES,
    reportFormats: REPORT_FORMATS,
    declareTools: declaredValidatorTools,
  };
}
