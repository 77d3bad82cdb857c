/**
 * The severities a reviewer may give a finding. A module of its own: the options schema needs the list, and loading
 * the answer schemas for it would make every command that reads the config build them (start-up: most commands never review).
 */
export const REVIEW_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
