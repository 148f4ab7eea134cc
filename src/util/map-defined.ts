/** `f(value)`, or undefined when there is no value. */
export const mapDefined = <T, R>(value: T | undefined, f: (value: T) => R): R | undefined => (value === undefined ? undefined : f(value));
