/**
 * Work and size limits for one automaton build. Every construction step that allocates states
 * (NFA, subset construction, products) charges this budget, so a pathological grammar or regex
 * fails fast with AUTOMATON_TOO_LARGE instead of hanging or exhausting memory.
 */
import { PocketExtractError } from "../../errors.js";

export class Budget {
  private work = 0;

  /** The budget of one automaton build allowed `maxStates` states: 64 units of work per state. */
  static forStates(maxStates: number): Budget {
    return new Budget(maxStates, maxStates * 64);
  }

  /** `maxStates` bounds any single automaton; `maxWork` bounds total effort across the build. */
  constructor(
    readonly maxStates: number,
    private readonly maxWork: number,
  ) {}

  /** Throws when an automaton under construction would exceed the state limit. */
  checkStates(count: number, what: string): void {
    if (count > this.maxStates) {
      throw new PocketExtractError(
        "AUTOMATON_TOO_LARGE",
        `${what} needs more than ${this.maxStates} states (maxStates); simplify the schema or raise the limit`,
      );
    }
  }

  /** Charges `units` of work (roughly: elementary state/transition visits). */
  charge(units: number, what: string): void {
    this.work += units;
    if (this.work > this.maxWork) {
      throw new PocketExtractError(
        "AUTOMATON_TOO_LARGE",
        `${what} exceeded the work limit of ${this.maxWork} steps; simplify the schema or raise maxStates`,
      );
    }
  }
}
