/**
 * Amounts are `bigint` in the client and decimal integer strings of minor units on the wire,
 * converted exactly both ways (`BigInt(string)` and `bigint.toString()`, never through `number`).
 *
 * Out: every `bigint` in a request body is written as its decimal string; query parameters take
 * `bigint` as they are (a query value is always text). In: the strings that the OpenAPI document
 * declares as amounts (a string with one of the amount patterns of the server's
 * `src/schemas/common.ts`) become `bigint`; where they sit in each operation's answer is the
 * generated AMOUNT_FIELDS. Anything else stays as it came, so a `metadata` value or an event's
 * free-form `data` that looks like a number is not touched.
 */

/** Where the amounts are in a value: it is one, or they are in its items or its properties. */
export type AmountShape = 'amount' | { items?: AmountShape; properties?: Record<string, AmountShape> };

/** A JSON request body with every `bigint` written as its decimal string. */
export function serializeBody(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

/** The value with the amounts that `shape` names turned into `bigint`; the input is not changed. */
export function withAmounts(value: unknown, shape: AmountShape | undefined): unknown {
  if (shape === undefined || value === null || value === undefined) return value;
  if (shape === 'amount') return typeof value === 'string' ? BigInt(value) : value;
  if (Array.isArray(value)) return shape.items === undefined ? value : value.map((item) => withAmounts(item, shape.items));
  if (typeof value !== 'object' || shape.properties === undefined) return value;
  const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, inner] of Object.entries(shape.properties)) {
    if (name in converted) converted[name] = withAmounts(converted[name], inner);
  }
  return converted;
}
