/**
 * Random tokens behind a short prefix (`fw_`, `rnd_`, `vcp_`) mix digits with upper and lower case letters; an
 * identifier that happens to share the prefix (`rnd_generateRandomValue`) rarely has all three.
 */
export function mixesDigitsAndCases(secret: string): boolean {
  return /[0-9]/.test(secret) && /[a-z]/.test(secret) && /[A-Z]/.test(secret);
}
