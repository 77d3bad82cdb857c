/** The team's reviewed waivers at the repository root (docs/waivers.md): a policy file like the config. */
export const COMMITTED_WAIVERS_FILE = 'tollgate.waivers.yaml';
