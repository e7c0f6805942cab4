/** A value for LIKE/ILIKE taken literally: its `\`, `%` and `_` escaped (PostgreSQL's default escape is `\`). */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, '\\$&');

/** A LIKE pattern matching text that contains `term`, compared in lower case. */
export const containsPattern = (term: string): string => `%${escapeLike(term.toLowerCase())}%`;
