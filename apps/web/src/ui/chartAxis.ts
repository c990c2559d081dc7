// The value axis of the reports' bar chart (ui/BarChart).

/** The axis' top: the smallest 1, 2 or 5 × 10^k at or above the largest value (at least 1). */
export function axisTop(max: number): number {
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= max) ?? 10 * power;
}

/** Axis ticks, top to bottom: the top, its half when whole, and 0. */
export function axisTicks(top: number): number[] {
  return top >= 2 && top % 2 === 0 ? [top, top / 2, 0] : [top, 0];
}
