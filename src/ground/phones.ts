/**
 * Phone numbers in text and values: digits with optional spaces, dashes and parentheses, with
 * an optional +86 / 0086 country prefix. Two phone numbers are equal when their canonical digit
 * strings are (country prefix removed), so 138-1234-5678, 138 1234 5678 and +86 13812345678 agree.
 * A decimal number (a dot between digit runs: 0.4001254, 1234567.89) is never part of one.
 */

export interface PhoneEntity {
  readonly start: number;
  readonly end: number;
  readonly digits: string;
}

// An area code in parentheses belongs to the span: (555) 123-4567, not 555) 123-4567.
const PHONE = /(?<![\d+])(?:\+|00)?\(?\d[\d \-()]{5,20}\d(?![\d])/g;
const MIN_DIGITS = 7;
const MAX_DIGITS = 15;

/** Canonical digits: separators removed, and the +86/0086 prefix dropped (also a bare 86 before
 *  an 11-digit mainland mobile number, as people write 8613812345678). */
export function canonicalPhone(raw: string): string | undefined {
  const intl = /^\s*(\+|00)/.test(raw);
  let digits = raw.replace(/\D/g, "");
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS + 2) return undefined;
  if (intl && raw.trim().startsWith("00")) digits = digits.slice(2);
  if ((intl && digits.startsWith("86")) || /^861\d{10}$/.test(digits)) digits = digits.slice(2);
  return digits.length >= MIN_DIGITS && digits.length <= MAX_DIGITS ? digits : undefined;
}

/** Reads a whole value as a phone number, or undefined. */
export function parsePhoneValue(value: string): string | undefined {
  return /^\s*(?:\+|00)?[\d \-()]+\s*$/.test(value) ? canonicalPhone(value) : undefined;
}

const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= "0" && ch <= "9";

/** Cuts off the ends of a phone-like match that belong to a decimal number: the digit run after
 *  "0." (0.4001254) and the one before ".5" (… 5678 0.5kg), with the separators next to them.
 *  Cutting, not dropping the match, keeps a real phone number written next to a decimal. */
function withoutDecimals(text: string, start: number, end: number): { start: number; end: number } {
  if (text[start - 1] === "." && isDigit(text[start - 2])) {
    while (start < end && isDigit(text[start])) start++;
    while (start < end && !isDigit(text[start]) && text[start] !== "(") start++;
  }
  if (text[end] === "." && isDigit(text[end + 1])) {
    while (end > start && isDigit(text[end - 1])) end--;
    while (end > start && !isDigit(text[end - 1])) end--;
  }
  return { start, end };
}

/** Finds phone-like digit groups in `text` (already width-folded), skipping `taken` ranges
 *  (dates), whose digits are not phone numbers. */
export function findPhones(text: string, taken: readonly { start: number; end: number }[]): PhoneEntity[] {
  const out: PhoneEntity[] = [];
  PHONE.lastIndex = 0;
  for (let m = PHONE.exec(text); m; m = PHONE.exec(text)) {
    const { start, end } = withoutDecimals(text, m.index, m.index + m[0].length);
    if (end <= start || taken.some((t) => t.start < end && start < t.end)) continue;
    const digits = canonicalPhone(text.slice(start, end));
    if (digits) out.push({ start, end, digits });
  }
  return out;
}
