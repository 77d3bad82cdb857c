import type { LineRange } from '../../../core/change-set/types.js';
import type { SarifLocation, SarifResult, SarifRule } from './sarif-schema.js';

/** Small facts read off one SARIF result or rule, shared by the streaming reader. Pure. */

export function baseName(uri: string): string {
  const cut = Math.max(uri.lastIndexOf('/'), uri.lastIndexOf('\\'));
  const name = cut >= 0 ? uri.slice(cut + 1) : uri;
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

export function locationsOf(result: SarifResult): SarifLocation[] {
  return [...(result.locations ?? []), ...(result.relatedLocations ?? [])];
}

export function isSuppressed(result: SarifResult): boolean {
  // An in-source suppression (`// eslint-disable-line`, `# nosemgrep`) counts unless a reviewer rejected it.
  return (result.suppressions ?? []).some(
    (suppression) => suppression.status !== 'rejected' && suppression.status !== 'underReview',
  );
}

export function overlaps(start: number, end: number, ranges: readonly LineRange[]): boolean {
  return ranges.some((range) => range.start <= end && start <= range.end);
}

export function securitySeverityOf(rule: SarifRule | undefined): number | undefined {
  const raw = rule?.properties?.['security-severity'];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'number' ? raw : Number.parseFloat(raw);
  return Number.isFinite(value) ? value : undefined;
}

export function fillArguments(text: string, args: readonly string[] | undefined): string {
  if (!args || args.length === 0) return text;
  return text.replace(/\{(\d+)\}/g, (whole, index: string) => args[Number(index)] ?? whole);
}
