/** A username has no spaces: registration, the profile and the server strip them alike. */
export function withoutSpaces(value: string): string {
  return value.replace(/\s+/g, '');
}
