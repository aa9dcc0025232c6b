/**
 * A slider's value with one decimal, 0.8 and 1.0 alike (the label must not jump between "1"
 * and "1.5" as the thumb moves). Not money and not a date: those go through lib/format.
 */
export function tenths(value: number): string {
  const scaled = Math.round(Math.abs(value) * 10);
  return `${value < 0 ? '-' : ''}${Math.trunc(scaled / 10)}.${scaled % 10}`;
}
