import type { CustomRule } from './options.js';
import { NO_SAMPLES, type SecretRule } from './rule.js';

/** A rule from config `secrets.rules`. Its samples are empty: users test their own formats with `tollgate scan`. */
export function compileCustomRule(rule: CustomRule): SecretRule {
  return {
    id: rule.id,
    title: rule.title ?? rule.id,
    severity: rule.severity,
    keywords: rule.keywords,
    pattern: new RegExp(rule.pattern, rule.caseInsensitive ? 'i' : ''),
    ...(rule.entropy === undefined ? {} : { entropy: rule.entropy }),
    samples: NO_SAMPLES,
  };
}
