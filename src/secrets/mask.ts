/**
 * The only form in which a secret leaves the scanner: at most its first 4 characters, then `…`. Short secrets show
 * fewer (a third, rounded down) so a 6-character password does not give away two thirds of itself.
 */
export function maskSecret(secret: string): string {
  const shown = Math.min(4, Math.floor(secret.length / 3));
  return `${secret.slice(0, shown)}…`;
}
