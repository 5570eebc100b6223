// The arguments of the test scripts: JSON with three more kinds of value.
// {"$big": "<decimal>"} is a BigInt, {"$": "NaN"}, {"$": "Infinity"},
// {"$": "-Infinity"} those Numbers, and {"$": "undefined"} undefined.
const SPECIAL = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity, undefined: undefined };

export function revive(value) {
  if (Array.isArray(value)) return value.map(revive);
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "$big") return BigInt(value.$big);
  if (keys.length === 1 && keys[0] === "$") return SPECIAL[value.$];
  return Object.fromEntries(keys.map((k) => [k, revive(value[k])]));
}
