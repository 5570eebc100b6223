// The viewer's BigInt numbers: one as typed into its boxes (a row, a y or an
// x), an integer or a sum of integers and powers ("2**63 - 5", "-2**62",
// "10**12 + 7"), exact; each mode says which values it takes and what to type.
// And the floor of a quotient (the band or the tile of a row or a column).

const FORM = /^[-+]?[0-9]+(\*\*[0-9]+)?([-+][0-9]+(\*\*[0-9]+)?)*$/;
const MAX_POWER = 1024n; // past it a power of 2 or more is far past any end: not computed

// {value, text} (text: what was typed, without spaces); {huge, text} when a
// power of 2 or more past 2**1024 makes it far past any end; null when it is
// not an integer or a sum of powers at all
export function typedInteger(typed) {
  const text = String(typed).replace(/\s+/g, "");
  if (text.length > 200 || !FORM.test(text)) return null;
  let value = 0n;
  for (const [, sign, base, power] of text.matchAll(/([-+]?)([0-9]+)(?:\*\*([0-9]+))?/g)) {
    let term = BigInt(base);
    if (power !== undefined) {
      if (BigInt(power) > MAX_POWER) {
        if (term > 1n) return { huge: true, text };
        term = term === 0n ? 0n : 1n;
      } else term **= BigInt(power);
    }
    value += sign === "-" ? -term : term;
  }
  return { value, text };
}

// floor(a / k) for BigInts, k > 0 (JavaScript's / rounds toward zero)
export const floorDiv = (a, k) => (a % k !== 0n && a < 0n ? a / k - 1n : a / k);
