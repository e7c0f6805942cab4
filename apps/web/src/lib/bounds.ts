/** A whole number within bounds (number inputs may hold anything while typing). */
export const within = (n: unknown, b: { min: number; max: number }): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= b.min && n <= b.max;
