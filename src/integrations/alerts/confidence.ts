/**
 * The one table that turns a confidence score (0–10) into High/Medium/Low. secret-validator-grunt (the alert validator it follows) used three
 * different cut-offs (eval ≥7, skill ≥8, agent body 8–10/4–7); here the evals, the prompts, the skills and the summary
 * all read this table (a test checks that the shipped skills quote it).
 */
export type ConfidenceLabel = 'High' | 'Medium' | 'Low';

const CONFIDENCE_BANDS: ReadonlyArray<{ label: ConfidenceLabel; min: number; max: number }> = [
  { label: 'High', min: 8, max: 10 },
  { label: 'Medium', min: 5, max: 7.9 },
  { label: 'Low', min: 0, max: 4.9 },
];

/** Scores are compared at one decimal, as reports write them ("7.95" counts as 8.0 → High). */
export function confidenceLabel(score: number): ConfidenceLabel {
  const rounded = Math.round(score * 10) / 10;
  for (const band of CONFIDENCE_BANDS) if (rounded >= band.min) return band.label;
  return 'Low';
}

/** The table as Markdown, for prompts. */
export function confidenceTableMarkdown(): string {
  const rows = CONFIDENCE_BANDS.map((band) => `| ${band.label} | ${band.min.toFixed(1)}–${band.max.toFixed(1)} |`);
  return ['| Label | Score |', '|---|---|', ...rows].join('\n');
}
