/**
 * Times of day in text: 15:00, 6:30 PM, 10am, 下午3点, 九点半, 12点30分. Grounding does not
 * compare times as values (a time value is matched as text); it only needs their ranges so that
 * the numbers inside them are not read as standalone numbers, as with dates and phone numbers:
 * the 3 of 下午3点 is not a quantity of 3.
 */

const CN_HOUR = "(?:\\d{1,2}|[零一二三四五六七八九十两]{1,3})";
const CN_MINUTE = "(?:\\d{1,2}|[零一二三四五六七八九十]{1,3})";
/** A Chinese time needs a part of day before it or minutes after it: a bare 3点 may be a score. */
const CN_TIME = new RegExp(
  `(?:(?:上午|下午|晚上|早上|中午|凌晨|傍晚)\\s*${CN_HOUR}\\s*[点點](?:\\s*(?:半|${CN_MINUTE}\\s*分|整))?)|(?:${CN_HOUR}\\s*[点點]\\s*(?:半|${CN_MINUTE}\\s*分|整))`,
  "g",
);
const CLOCK = /(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?:\s*(?:am|pm|a\.m\.|p\.m\.))?(?![\d:])/gi;
const HOUR_AMPM = /(?<![\d:])\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])/gi;

export interface TimeRange {
  readonly start: number;
  readonly end: number;
}

/** Ranges of times of day in `text` (already width-folded). */
export function findTimes(text: string): TimeRange[] {
  const out: TimeRange[] = [];
  for (const re of [CN_TIME, CLOCK, HOUR_AMPM]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}
